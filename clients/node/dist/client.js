import { randomUUID } from 'node:crypto';
import { Delivery } from './delivery.js';
import { DeliveryError } from './errors.js';
import { call } from './http.js';
import { ApiCalls } from './reads.js';
/**
 * The Node.js client. `track` queues and returns at once; a background sender delivers batches
 * (see Delivery). User calls and the typed read helpers (ApiCalls) return the service's answer.
 */
export class Client extends ApiCalls {
    http;
    delivery;
    shutdownTimeout;
    closed = false;
    atExit = () => this.flushAtExit();
    constructor(options) {
        super();
        if (!options?.apiKey)
            throw new TypeError('Client: apiKey is required');
        const host = (options.host ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
        const timeout = options.timeout ?? 10_000;
        const retries = options.maxRetries ?? 10;
        const retryBaseDelay = options.retryBaseDelay ?? 500;
        const retryMaxDelay = options.retryMaxDelay ?? 30_000;
        const batchSize = options.batchSize ?? 500;
        if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000) {
            throw new RangeError('Client: batchSize must be a whole number from 1 to 1,000');
        }
        this.http = {
            baseUrl: /\/v1$/.test(host) ? host : `${host}/v1`,
            apiKey: options.apiKey,
            timeout,
            userAgent: `product-intelligence-node node/${process.versions.node}`,
            retries: Math.min(retries, 3),
            retryBase: retryBaseDelay,
            retryMax: retryMaxDelay,
        };
        const logger = options.logger ?? console;
        this.delivery = new Delivery({
            ...this.http,
            maxQueueSize: options.maxQueueSize ?? 10_000,
            batchSize,
            flushInterval: options.flushInterval ?? 10_000,
            maxRetries: retries,
            retryBaseDelay,
            retryMaxDelay,
            onError: options.onError ??
                ((error, events) => logger.warn(`product-intelligence: ${events.length} events not delivered: ${error.message}`)),
        });
        this.shutdownTimeout = options.shutdownTimeout ?? 10_000;
        if (options.flushAtExit ?? true)
            process.on('beforeExit', this.atExit);
    }
    /** Events dropped because the queue was full. */
    get droppedCount() {
        return this.delivery.dropped;
    }
    /** Events the service accepted. */
    get deliveredCount() {
        return this.delivery.delivered;
    }
    /** Events given up (handed to onError). */
    get failedCount() {
        return this.delivery.failed;
    }
    /** Queues an event and returns its message id at once; never throws and never waits for the network. */
    track(input) {
        const messageId = input?.messageId ?? randomUUID();
        const event = { user_id: input?.userId, event: input?.event, message_id: messageId };
        if (input?.properties !== undefined)
            event.properties = input.properties;
        if (input?.timestamp !== undefined) {
            event.timestamp = input.timestamp instanceof Date ? input.timestamp.toISOString() : input.timestamp;
        }
        if (this.closed)
            this.delivery.giveUp([event], new DeliveryError('the client was shut down'));
        else
            this.delivery.add(event);
        return messageId;
    }
    /** Creates the user or merges properties into it (a null value removes a property). */
    async identify(input) {
        return (await this.call('POST', '/users/identify', {
            user_id: input.userId,
            properties: input.properties ?? {},
        }));
    }
    /** Merges properties into an existing user (404 when there is none). */
    async updateUser(input) {
        return (await this.call('PATCH', `/users/${encodeURIComponent(input.userId)}`, {
            properties: input.properties,
        }));
    }
    /** Erases every row of the user, events in flight included (a privacy request). Needs an admin key. */
    async deleteUser(input) {
        return (await this.call('DELETE', `/users/${encodeURIComponent(input.userId)}`));
    }
    /** Sends what is queued and waits: true once every event is delivered or refused, false if `timeout` (ms) ran out. */
    flush(timeout) {
        return this.delivery.flush(timeout);
    }
    /** Flushes (at most `timeout`, default shutdownTimeout), then stops; later events are given up. */
    async shutdown(timeout = this.shutdownTimeout) {
        this.closed = true;
        process.off('beforeExit', this.atExit);
        const done = await this.delivery.flush(timeout);
        this.delivery.close('the client was shut down');
        return done;
    }
    async call(method, path, body) {
        return (await call(this.http, method, path, body)).body;
    }
    /** beforeExit: the loop is empty; the flush holds it open (its requests and retry waits) until done or out of time. */
    flushAtExit() {
        if (this.delivery.pending > 0)
            void this.delivery.flush(this.shutdownTimeout);
    }
}
