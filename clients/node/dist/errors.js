/** An answer of the service other than success, with its error body `{ error: { code, message, details } }`. */
export class ApiError extends Error {
    status;
    code;
    details;
    retryAfter;
    name = 'ApiError';
    constructor(
    /** HTTP status, e.g. 400 */
    status, 
    /** e.g. invalid_request, not_found, rate_limited */
    code, message, 
    /** e.g. { field: 'events[3].event', reason: 'min_length' } */
    details = {}, 
    /** Seconds the service asked to wait (Retry-After), when it said so */
    retryAfter) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details;
        this.retryAfter = retryAfter;
    }
}
/** No answer: the connection failed or the attempt took longer than `timeout`. */
export class NetworkError extends Error {
    name = 'NetworkError';
    constructor(message, options) {
        super(message, options);
    }
}
/** Events the client gave up on without the service refusing them: the queue closed or the exit flush ran out of time. */
export class DeliveryError extends Error {
    name = 'DeliveryError';
}
