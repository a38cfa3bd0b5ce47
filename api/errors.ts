import type { Middleware } from 'koa';
import { ServiceError, classify } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  | 'not_implemented'
  | 'service_unavailable';

/**
 * An error with its public form; the error middleware is the only place that renders it. The
 * client may send the same request again later (`retriable`) after a 429 or a 503.
 */
export class ApiError extends ServiceError {
  declare readonly code: ErrorCode;

  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message, { retriable: status === 429 || status === 503 });
  }
}

export const invalidRequest = (message: string, details: Record<string, unknown> = {}) =>
  new ApiError(400, 'invalid_request', message, details);
export const fieldError = (field: string, reason: string, message: string, extra: Record<string, unknown> = {}) =>
  invalidRequest(message, { field, reason, ...extra });
export const unauthorized = (message = 'A valid API key is required: Authorization: Bearer <API_KEY>.') =>
  new ApiError(401, 'unauthorized', message, {}, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (scope: string) =>
  new ApiError(403, 'forbidden', `This API key lacks the scope ${scope}.`, { required_scope: scope });
export const notFound = (what = 'resource') => new ApiError(404, 'not_found', `No such ${what}.`);
export const payloadTooLarge = (limitBytes: number) =>
  new ApiError(413, 'payload_too_large', `The request body exceeds ${limitBytes} bytes.`, { limit_bytes: limitBytes });
/** Seconds a client told 503 for want of Postgres waits before sending the same request again. */
export const RETRY_AFTER_S = 5;

/** 503; with `retryAfterS`, a `Retry-After` header telling the client when to send the same request again. */
export const unavailable = (message: string, retryAfterS?: number) =>
  new ApiError(
    503,
    'service_unavailable',
    message,
    {},
    retryAfterS === undefined ? {} : { 'Retry-After': String(retryAfterS) },
  );

/**
 * Maps anything thrown below it to `{"error":{code,message,details}}`: a retriable error (Postgres
 * slow, busy or away, lib/errors.ts) is a 503 with Retry-After, any other unknown one a 500.
 */
export function errorMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) {
        throw new ApiError(404, 'not_found', `No route ${ctx.method} ${ctx.path}.`);
      }
      if (ctx.body === undefined && ctx.status === 501) {
        throw new ApiError(501, 'not_implemented', `The method ${ctx.method} is not supported.`);
      }
      if (ctx.body === undefined && ctx.status === 405) {
        throw new ApiError(405, 'method_not_allowed', `${ctx.path} does not accept ${ctx.method}.`, {
          allowed_methods: ctx.response.get('Allow').split(', '),
        });
      }
    } catch (err) {
      const apiError =
        err instanceof ApiError
          ? err
          : classify(err).retriable
            ? unavailable(
                'The database is busy or unavailable; nothing was applied. Retry the request later.',
                RETRY_AFTER_S,
              )
            : new ApiError(500, 'internal_error', 'Something went wrong on our side; the request was not applied.');
      if (!(err instanceof ApiError)) log.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      ctx.body = { error: { code: apiError.code, message: apiError.message, details: apiError.details } };
    }
  };
}
