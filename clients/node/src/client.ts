import { randomUUID } from 'node:crypto';
import { Delivery, type ErrorCallback, type WireEvent } from './delivery.js';
import { DeliveryError } from './errors.js';
import { type HttpOptions, call } from './http.js';
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

export interface IdentifyInput {
  userId: string;
  properties?: Record<string, unknown>;
  /** The id the person's events were sent under before sign-in (e.g. a sign-up funnel): linked to userId */
  anonymousId?: string;
}

/** The body of POST /users/identify; anonymous_id only when given. */
export function identifyBody(input: IdentifyInput): Record<string, unknown> {
  const body: Record<string, unknown> = { user_id: input.userId, properties: input.properties ?? {} };
  if (input.anonymousId !== undefined) body.anonymous_id = input.anonymousId;
  return body;
}

/**
 * The Node.js client. `track` queues and returns at once; a background sender delivers batches
 * (see Delivery). User calls and the typed read helpers (ApiCalls) return the service's answer.
 */
export class Client extends ApiCalls {
  private readonly http: HttpOptions & { retries: number; retryBase: number; retryMax: number };
  private readonly delivery: Delivery;
  private readonly shutdownTimeout: number;
  private closed = false;
  private readonly atExit = () => this.flushAtExit();

  constructor(options: ClientOptions) {
    super();
    if (!options?.apiKey) throw new TypeError('Client: apiKey is required');
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
      onError:
        options.onError ??
        ((error, events) =>
          logger.warn(`product-intelligence: ${events.length} events not delivered: ${error.message}`)),
    });
    this.shutdownTimeout = options.shutdownTimeout ?? 10_000;
    if (options.flushAtExit ?? true) process.on('beforeExit', this.atExit);
  }

  /** Events dropped because the queue was full. */
  get droppedCount(): number {
    return this.delivery.dropped;
  }
  /** Events the service accepted. */
  get deliveredCount(): number {
    return this.delivery.delivered;
  }
  /** Events given up (handed to onError). */
  get failedCount(): number {
    return this.delivery.failed;
  }

  /** Queues an event and returns its message id at once; never throws and never waits for the network. */
  track(input: TrackInput): string {
    const messageId = input?.messageId ?? randomUUID();
    const event: WireEvent = { user_id: input?.userId, event: input?.event, message_id: messageId };
    if (input?.properties !== undefined) event.properties = input.properties;
    if (input?.timestamp !== undefined) {
      event.timestamp = input.timestamp instanceof Date ? input.timestamp.toISOString() : input.timestamp;
    }
    if (this.closed) this.delivery.giveUp([event], new DeliveryError('the client was shut down'));
    else this.delivery.add(event);
    return messageId;
  }

  /**
   * Creates the user or merges properties into it (a null value removes a property). With
   * `anonymousId`, the events sent under that id before sign-in become the user's and count as one
   * person; an anonymous id links to one user only (a second user: ApiError 409 `conflict` with
   * details.reason `linked_to_another_user`).
   */
  async identify(input: IdentifyInput): Promise<Schemas['User']> {
    return (await this.call('POST', '/users/identify', identifyBody(input))) as Schemas['User'];
  }

  /** Merges properties into an existing user (404 when there is none). */
  async updateUser(input: { userId: string; properties: Record<string, unknown> }): Promise<Schemas['User']> {
    return (await this.call('PATCH', `/users/${encodeURIComponent(input.userId)}`, {
      properties: input.properties,
    })) as Schemas['User'];
  }

  /** Erases every row of the user, events in flight included (a privacy request). Needs an admin key. */
  async deleteUser(input: { userId: string }): Promise<Schemas['UserDeleted']> {
    return (await this.call('DELETE', `/users/${encodeURIComponent(input.userId)}`)) as Schemas['UserDeleted'];
  }

  /** Sends what is queued and waits: true once every event is delivered or refused, false if `timeout` (ms) ran out. */
  flush(timeout?: number): Promise<boolean> {
    return this.delivery.flush(timeout);
  }

  /** Flushes (at most `timeout`, default shutdownTimeout), then stops; later events are given up. */
  async shutdown(timeout = this.shutdownTimeout): Promise<boolean> {
    this.closed = true;
    process.off('beforeExit', this.atExit);
    const done = await this.delivery.flush(timeout);
    this.delivery.close('the client was shut down');
    return done;
  }

  protected async call(method: string, path: string, body?: unknown): Promise<unknown> {
    return (await call(this.http, method, path, body)).body;
  }

  /** beforeExit: the loop is empty; the flush holds it open (its requests and retry waits) until done or out of time. */
  private flushAtExit(): void {
    if (this.delivery.pending > 0) void this.delivery.flush(this.shutdownTimeout);
  }
}
