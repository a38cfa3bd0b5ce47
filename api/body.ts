import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { ApiError, fieldError, invalidRequest, payloadTooLarge } from './errors.js';

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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalidRequest('The request body is not valid JSON.', {
      reason: 'malformed_json',
      parser: (err as Error).message,
    });
  }
  const bad = problemAt(value, '');
  if (bad?.reason === 'too_deep') {
    throw fieldError(bad.path || '(body)', 'too_deep', `Bodies may nest at most ${MAX_DEPTH} levels.`);
  }
  if (bad) {
    throw fieldError(
      bad.path || '(body)',
      'invalid_characters',
      'Strings may not contain U+0000 or unpaired surrogates (\\u0000, lone \\ud800 …).',
    );
  }
  return value;
}

// Postgres text and jsonb cannot hold U+0000, and jsonb refuses unpaired surrogate escapes:
// such input is refused at the door instead of failing later in a processor.
// eslint-disable-next-line no-control-regex -- matching U+0000 is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const MAX_DEPTH = 32;

/**
 * The first string (value or key) Postgres could not store, or the first value nested deeper
 * than MAX_DEPTH, with its path — or undefined. Iterative, so no input can exhaust the stack.
 */
export function problemAt(
  root: unknown,
  rootPath: string,
): { path: string; reason: 'invalid_characters' | 'too_deep' } | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { path, reason: 'invalid_characters' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) return { path, reason: 'too_deep' };
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [`${path}[${i}]`, item])
      : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
    if (!Array.isArray(value)) {
      const badKey = Object.keys(value).find((key) => UNSTORABLE.test(key));
      if (badKey !== undefined) return { path: path ? `${path}.${badKey}` : badKey, reason: 'invalid_characters' };
    }
    for (let i = entries.length - 1; i >= 0; i--)
      stack.push({ value: entries[i]![1], path: entries[i]![0], depth: depth + 1 });
  }
  return undefined;
}
