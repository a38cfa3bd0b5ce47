import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { ApiError, invalidRequest, payloadTooLarge } from './errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

declare module 'koa' {
  interface Request {
    json?: unknown;
  }
}

/**
 * Reads a JSON body (application/json, at most 1 MiB) into ctx.request.json. The limit is
 * enforced while reading, so an oversized body is refused without being buffered whole.
 */
export function jsonBody(limit = MAX_BODY_BYTES): Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method)) {
      await next();
      return;
    }
    if (!ctx.is('application/json')) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'Request bodies must be JSON (Content-Type: application/json).',
        {
          field: 'Content-Type',
          reason: 'unsupported',
        },
      );
    }
    ctx.request.json = parse(await read(ctx, limit));
    await next();
  };
}

async function read(ctx: Context, limit: number): Promise<string> {
  try {
    return await getRawBody(ctx.req, { limit, length: ctx.get('Content-Length') || undefined, encoding: 'utf8' });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw payloadTooLarge(limit);
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      throw invalidRequest('Request bodies must be UTF-8 JSON.', {
        field: 'Content-Type',
        reason: 'unsupported_charset',
      });
    }
    throw invalidRequest('The request body could not be read.', { reason: type ?? 'unreadable' });
  }
}

function parse(text: string): unknown {
  if (text.trim() === '')
    throw invalidRequest('The request body is empty; a JSON object is expected.', { reason: 'empty_body' });
  try {
    return JSON.parse(text);
  } catch (err) {
    throw invalidRequest('The request body is not valid JSON.', {
      reason: 'malformed_json',
      parser: (err as Error).message,
    });
  }
}
