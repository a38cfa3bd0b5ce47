import type { Middleware } from 'koa';
import type { Pool } from '../lib/db.js';
import type { Scope } from '../store/api-keys.js';
import { ApiError, fieldError } from './errors.js';

/** The endpoints a browser (the tracker, clients/browser) may call from another origin. */
export const BROWSER_PATHS = new Set(['/v1/events', '/v1/events/batch', '/v1/users/identify']);

/** Browsers keep a preflight answer at most 2 h (Chromium's cap). */
const PREFLIGHT_MAX_AGE_S = 7200;

/**
 * An allowed origin as browsers send it in `Origin` (`https://app.example.com`, lowercase host,
 * no default port), or undefined when `text` is not an http(s) origin (a path, a query, `*`, `null`).
 */
export function normalizeOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  // href is the origin plus "/" only without path, query, fragment or credentials (an empty "?" included).
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.href !== `${url.origin}/`) return undefined;
  return url.origin;
}

/**
 * The normalized allow-list of a new key, or null. A key with origins is a browser key: its
 * secret is public in every page, so it may only write events (`events:write`, nothing readable).
 */
export function allowedOriginsOf(origins: string[] | null | undefined, scopes: Scope[]): string[] | null {
  if (!origins) return null;
  const normalized = origins.map((text, i) => {
    const origin = normalizeOrigin(text);
    if (!origin) {
      throw fieldError(
        `allowed_origins[${i}]`,
        'invalid_value',
        `allowed_origins[${i}] must be an origin such as https://app.example.com (scheme and host, no path).`,
      );
    }
    return origin;
  });
  if (normalized.length > 0 && (scopes.length !== 1 || scopes[0] !== 'events:write')) {
    throw fieldError(
      'scopes',
      'invalid_value',
      'A key with allowed_origins is a browser key: its scopes must be ["events:write"].',
    );
  }
  return [...new Set(normalized)];
}

/** 403 for a key whose allow-list does not hold the request's Origin (no Origin: not a browser, not refused). */
export function refuseForeignOrigin(origin: string, allowedOrigins: string[] | null): void {
  if (!origin || allowedOrigins === null || allowedOrigins.includes(origin)) return;
  throw new ApiError(403, 'forbidden', `Requests from the origin ${origin} are not allowed for this API key.`, {
    origin,
    reason: 'origin_not_allowed',
  });
}

/** Whether some live browser key lists the origin: all a preflight or a keyless answer can know. */
async function someKeyAllows(db: Pool, origin: string): Promise<boolean> {
  const { rows } = await db.query<{ allowed: boolean }>(
    'select exists (select 1 from api_keys where revoked_at is null and allowed_origins @> array[$1]) as allowed',
    [origin],
  );
  return rows[0]!.allowed;
}

/**
 * CORS for BROWSER_PATHS. A preflight carries no key, so it is answered for an origin that some
 * live key allows; the request itself gets `Access-Control-Allow-Origin` only when its own key
 * allows the origin (errors included, so the tracker can read a 400 or a 429's Retry-After), and a
 * 401 when the preflight would pass (so a wrong key shows as 401, not as an endless network error).
 * Anything else gets no CORS headers, and the browser keeps the answer from the page.
 */
export function ingestCors(db: Pool): Middleware {
  return async (ctx, next) => {
    if (!BROWSER_PATHS.has(ctx.path)) {
      await next();
      return;
    }
    const origin = ctx.get('Origin');
    ctx.vary('Origin');
    if (ctx.method === 'OPTIONS' && origin && ctx.get('Access-Control-Request-Method')) {
      if (await someKeyAllows(db, origin)) {
        ctx.set({
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': 'POST',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
          'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
        });
      }
      ctx.status = 204;
      return;
    }
    const ownKeyAllows = () => origin !== '' && ctx.state.auth?.allowedOrigins?.includes(origin) === true;
    const allow = () =>
      ctx.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
      });
    try {
      await next();
    } catch (err) {
      // The error middleware (outside) renders the error and keeps the headers set here.
      const unknownKey = err instanceof ApiError && err.status === 401;
      if (ownKeyAllows() || (origin && unknownKey && (await someKeyAllows(db, origin)))) allow();
      throw err;
    }
    if (ownKeyAllows()) allow();
  };
}
