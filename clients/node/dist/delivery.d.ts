import { type HttpOptions } from './http.js';
/** One event as POST /v1/events/batch takes it. */
export interface WireEvent {
    user_id: string;
    event: string;
    properties?: Record<string, unknown>;
    timestamp?: string;
    message_id: string;
}
export type ErrorCallback = (error: Error, events: WireEvent[]) => void;
export interface DeliveryOptions extends HttpOptions {
    maxQueueSize: number;
    batchSize: number;
    /** ms an event waits for its batch to fill */
    flushInterval: number;
    maxRetries: number;
    retryBaseDelay: number;
    retryMaxDelay: number;
    onError: ErrorCallback;
}
/** The service's limit on a request body. */
export declare const MAX_BODY_BYTES = 1048576;
/**
 * The background queue: bounded (a full queue drops its oldest event and counts it), sent in
 * batches of at most `batchSize` events and 1 MiB by one sender at a time, each batch retried
 * with the same body (so the same message_ids) until the service takes it or it is given up.
 * Nothing here throws into the application: failures go to `onError`.
 */
export declare class Delivery {
    private readonly options;
    private readonly queue;
    private timer;
    private sending;
    /** Set by flush(timeout): retries stop waiting, and what is left is given up, at this instant. */
    private deadline;
    /** Flushes being awaited: while there are any, a retry's wait keeps the process alive. */
    private flushers;
    private retryTimer;
    dropped: number;
    delivered: number;
    failed: number;
    constructor(options: DeliveryOptions);
    get pending(): number;
    add(event: WireEvent): void;
    /**
     * Sends everything queued and waits for it: true once each event is delivered or refused by the
     * service, false when `timeout` (ms) ran out first (what was left is given up, to onError).
     */
    flush(timeout?: number): Promise<boolean>;
    /** Gives up what is still queued (after a flush ran out of time). */
    close(reason: string): void;
    private send;
    private drain;
    /** The oldest events that fit in one request: at most batchSize of them and 1 MiB. */
    private takeBatch;
    private deliver;
    /** Hands events to onError, counted as failed. */
    giveUp(events: WireEvent[], error: Error): void;
}
