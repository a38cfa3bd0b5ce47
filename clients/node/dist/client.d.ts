import { type ErrorCallback } from './delivery.js';
import { ApiCalls, type Schemas } from './reads.js';
export interface ClientOptions {
    /** An API key: events:write to track and identify; analytics:read or admin for the read helpers. */
    apiKey: string;
    /** The service, e.g. https://pi.example.com; /v1 is added when missing. Default http://127.0.0.1:3000 */
    host?: string;
    /** ms per HTTP attempt. Default 10,000 */
    timeout?: number;
    /** Events held; when full the oldest is dropped and counted (droppedCount). Default 10,000 */
    maxQueueSize?: number;
    /** Events per request, 1 to 1,000 (requests are also cut at 1 MiB). Default 500 */
    batchSize?: number;
    /** ms an event waits for its batch to fill. Default 10,000 */
    flushInterval?: number;
    /** Retries of a request after the first attempt. Default 10 */
    maxRetries?: number;
    /** ms, doubling per retry up to retryMaxDelay, with jitter. Default 500 */
    retryBaseDelay?: number;
    /** ms. Default 30,000 */
    retryMaxDelay?: number;
    /** Called with the error and the events given up (refused by the service, or out of retries or time). */
    onError?: ErrorCallback;
    /** Where given-up events are reported when there is no onError. Default console */
    logger?: Pick<Console, 'warn'>;
    /** Send what is queued when the event loop empties (beforeExit), for at most shutdownTimeout. Default true */
    flushAtExit?: boolean;
    /** ms. Default 10,000 */
    shutdownTimeout?: number;
}
export interface TrackInput {
    userId: string;
    event: string;
    properties?: Record<string, unknown>;
    /** When it happened; default: when the service receives it */
    timestamp?: Date | string;
    /** The event's identity: the service stores one event per message id. Default: a random UUID */
    messageId?: string;
}
/**
 * The Node.js client. `track` queues and returns at once; a background sender delivers batches
 * (see Delivery). User calls and the typed read helpers (ApiCalls) return the service's answer.
 */
export declare class Client extends ApiCalls {
    private readonly http;
    private readonly delivery;
    private readonly shutdownTimeout;
    private closed;
    private readonly atExit;
    constructor(options: ClientOptions);
    /** Events dropped because the queue was full. */
    get droppedCount(): number;
    /** Events the service accepted. */
    get deliveredCount(): number;
    /** Events given up (handed to onError). */
    get failedCount(): number;
    /** Queues an event and returns its message id at once; never throws and never waits for the network. */
    track(input: TrackInput): string;
    /** Creates the user or merges properties into it (a null value removes a property). */
    identify(input: {
        userId: string;
        properties?: Record<string, unknown>;
    }): Promise<Schemas['User']>;
    /** Merges properties into an existing user (404 when there is none). */
    updateUser(input: {
        userId: string;
        properties: Record<string, unknown>;
    }): Promise<Schemas['User']>;
    /** Erases every row of the user, events in flight included (a privacy request). Needs an admin key. */
    deleteUser(input: {
        userId: string;
    }): Promise<Schemas['UserDeleted']>;
    /** Sends what is queued and waits: true once every event is delivered or refused, false if `timeout` (ms) ran out. */
    flush(timeout?: number): Promise<boolean>;
    /** Flushes (at most `timeout`, default shutdownTimeout), then stops; later events are given up. */
    shutdown(timeout?: number): Promise<boolean>;
    protected call(method: string, path: string, body?: unknown): Promise<unknown>;
    /** beforeExit: the loop is empty; the flush holds it open (its requests and retry waits) until done or out of time. */
    private flushAtExit;
}
