/** An answer of the service other than success, with its error body `{ error: { code, message, details } }`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status, e.g. 400 */
    readonly status: number,
    /** e.g. invalid_request, not_found, rate_limited */
    readonly code: string,
    message: string,
    /** e.g. { field: 'events[3].event', reason: 'min_length' } */
    readonly details: Record<string, unknown> = {},
    /** Seconds the service asked to wait (Retry-After), when it said so */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** No answer: the connection failed or the attempt took longer than `timeout`. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Events the client gave up on without the service refusing them: the queue closed or the exit flush ran out of time. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
}
