import type { Middleware } from 'koa';
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

/**
 * 403 for a key used from a page it may not be used from (no Origin: not a browser, not refused): a
 * browser key from an origin outside its allow-list, or a server key (no allow-list) from any page,
 * where its secret is readable by anyone who opens the page.
 */
export function refuseForeignOrigin(origin: string, allowedOrigins: string[] | null): void {
  if (!origin || allowedOrigins?.includes(origin)) return;
  if (allowedOrigins === null) {
    throw new ApiError(
      403,
      'forbidden',
      `This is a server key (it lists no allowed_origins), and the request comes from a page (Origin ${origin}), ` +
        'where anyone can read the key. Use a browser key that lists the origin (scopes ["events:write"], ' +
        "allowed_origins), and revoke this key if the page was published; a server forwarding a browser's " +
        'Origin header should drop it.',
      { origin, reason: 'server_key_in_page' },
    );
  }
  throw new ApiError(403, 'forbidden', `Requests from the origin ${origin} are not allowed for this API key.`, {
    origin,
    reason: 'origin_not_allowed',
  });
}

/**
 * CORS for BROWSER_PATHS. A preflight carries no key, and a page holds its key anyway (nothing
 * ambient such as a cookie rides along), so any page origin passes it and the request's own key
 * decides: its answers (errors included, so the tracker can read a 400 or a 429's Retry-After) get
 * `Access-Control-Allow-Origin` only when the key allows the origin. The refusal of the key itself
 * (401, 403) is readable by every page, so the tracker can say why instead of retrying a network
 * error; it carries the error alone. Anything else gets no CORS headers, and the browser keeps the
 * answer from the page.
 */
export function ingestCors(): Middleware {
  return async (ctx, next) => {
    if (!BROWSER_PATHS.has(ctx.path)) {
      await next();
      return;
    }
    const origin = ctx.get('Origin');
    ctx.vary('Origin');
    // A page's origin as browsers send it; `null` (sandboxed frames, files) and anything else get nothing.
    const pageOrigin = origin !== '' && normalizeOrigin(origin) === origin;
    if (ctx.method === 'OPTIONS' && origin && ctx.get('Access-Control-Request-Method')) {
      if (pageOrigin) {
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
    const ownKeyAllows = () => pageOrigin && ctx.state.auth?.allowedOrigins?.includes(origin) === true;
    const allow = () =>
      ctx.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
      });
    try {
      await next();
    } catch (err) {
      // The error middleware (outside) renders the error and keeps the headers set here.
      if (ownKeyAllows()) allow();
      else if (pageOrigin && err instanceof ApiError && (err.status === 401 || err.status === 403)) {
        ctx.set('Access-Control-Allow-Origin', origin);
      }
      throw err;
    }
    if (ownKeyAllows()) allow();
  };
}
