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

/** A container being walked and the position of its member in hand (`at - 1`). */
interface Open {
  container: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  at: number;
}

/**
 * The first string (value or key) Postgres could not store, or the first value nested deeper
 * than MAX_DEPTH, with its path — or undefined. Iterative, so no input can exhaust the stack; the
 * containers open around the member in hand spell its path, so a path is built only for a problem.
 */
export function problemAt(
  root: unknown,
  rootPath: string,
): { path: string; reason: 'invalid_characters' | 'too_deep' } | undefined {
  const open: Open[] = [];
  let value = root;
  for (;;) {
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { path: pathOf(rootPath, open), reason: 'invalid_characters' };
    } else if (value !== null && typeof value === 'object') {
      if (open.length >= MAX_DEPTH) return { path: pathOf(rootPath, open), reason: 'too_deep' };
      if (Array.isArray(value)) open.push({ container: value, keys: undefined, at: 0 });
      else {
        const container = value as Record<string, unknown>;
        const keys = Object.keys(container);
        const badKey = keys.findIndex((key) => UNSTORABLE.test(key));
        open.push({ container, keys, at: badKey + 1 });
        if (badKey !== -1) return { path: pathOf(rootPath, open), reason: 'invalid_characters' };
      }
    }
    let top = open.at(-1);
    while (top && top.at === (top.keys ?? (top.container as unknown[])).length) {
      open.pop();
      top = open.at(-1);
    }
    if (!top) return undefined;
    value = top.keys
      ? (top.container as Record<string, unknown>)[top.keys[top.at]!]
      : (top.container as unknown[])[top.at];
    top.at++;
  }
}

/** `a.b[2].c`: the path of the member in hand of each open container. */
function pathOf(rootPath: string, open: Open[]): string {
  let path = rootPath;
  for (const { keys, at } of open) {
    if (!keys) path = `${path}[${at - 1}]`;
    else path = path ? `${path}.${keys[at - 1]!}` : keys[at - 1]!;
  }
  return path;
}
