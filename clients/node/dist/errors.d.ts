/** An answer of the service other than success, with its error body `{ error: { code, message, details } }`. */
export declare class ApiError extends Error {
    /** HTTP status, e.g. 400 */
    readonly status: number;
    /** e.g. invalid_request, not_found, rate_limited */
    readonly code: string;
    /** e.g. { field: 'events[3].event', reason: 'min_length' } */
    readonly details: Record<string, unknown>;
    /** Seconds the service asked to wait (Retry-After), when it said so */
    readonly retryAfter?: number | undefined;
    readonly name = "ApiError";
    constructor(
    /** HTTP status, e.g. 400 */
    status: number, 
    /** e.g. invalid_request, not_found, rate_limited */
    code: string, message: string, 
    /** e.g. { field: 'events[3].event', reason: 'min_length' } */
    details?: Record<string, unknown>, 
    /** Seconds the service asked to wait (Retry-After), when it said so */
    retryAfter?: number | undefined);
}
/** No answer: the connection failed or the attempt took longer than `timeout`. */
export declare class NetworkError extends Error {
    readonly name = "NetworkError";
    constructor(message: string, options?: {
        cause?: unknown;
    });
}
/** Events the client gave up on without the service refusing them: the queue closed or the exit flush ran out of time. */
export declare class DeliveryError extends Error {
    readonly name = "DeliveryError";
}
