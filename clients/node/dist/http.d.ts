export interface HttpOptions {
    /** The service's base URL, with /v1 */
    baseUrl: string;
    apiKey: string;
    /** Per attempt, ms */
    timeout: number;
    userAgent: string;
}
export interface Answer {
    status: number;
    body: unknown;
}
/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export declare function parseRetryAfter(value: string | null, now?: number): number | undefined;
/** Worth another attempt: no answer, a 429, or a 5xx other than 501 (not implemented never changes). */
export declare const retriable: (error: unknown) => boolean;
/**
 * Exponential backoff with full jitter (AWS's "full jitter": a random delay up to the capped
 * exponential), and never less than the service's Retry-After. Milliseconds.
 */
export declare function retryDelay(attempt: number, base: number, max: number, error: unknown, random?: () => number): number;
/** One HTTP exchange; resolves with a 2xx answer, throws ApiError for any other and NetworkError without one. */
export declare function exchange(options: HttpOptions, method: string, path: string, body?: unknown): Promise<Answer>;
/**
 * A call the application waits for (users, reads, admin): retried like deliveries, at most
 * `retries` times, but a Retry-After longer than `timeout` is not waited out. A call that is not
 * idempotent (creating a job) is retried only after a 429, which the service answers before doing
 * anything.
 */
export declare function call(options: HttpOptions & {
    retries: number;
    retryBase: number;
    retryMax: number;
}, method: string, path: string, body?: unknown): Promise<Answer>;
