import type { Middleware } from 'koa';
import type { Pool } from '../lib/db.js';
import { ApiError } from './errors.js';

const WINDOW_MS = 60 * 60 * 1000;

declare module 'koa' {
  interface DefaultState {
    /** This request's window as counted, this request included (GET /settings/rate-limit shows it). */
    rateWindow: { start: Date; used: number };
  }
}

export interface Window {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window ends and the count starts again. */
  reset: number;
}

/** Fixed hourly windows aligned to the clock hour (pure: the count comes from Postgres). */
export function windowOf(now: number, limit: number, used: number): Window {
  const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return { limit, remaining: Math.max(0, limit - used), reset: (start + WINDOW_MS) / 1000 };
}

/**
 * What one key may use of its project's hourly limit: an admin key (and a console session) all of
 * it; any other key all but a reserve of a tenth (at least one request, unless the limit is 1), so
 * that the public write key of a busy site cannot lock the project's admin out of its own hour.
 */
export function keyLimit(projectLimit: number, scopes: readonly string[]): number {
  if (scopes.includes('admin')) return projectLimit;
  return Math.max(1, projectLimit - Math.max(1, Math.floor(projectLimit / 10)));
}

/**
 * Counts the request against the project's hourly limit in Postgres (shared by every API
 * process), sets X-RateLimit-* on the response, and answers 429 beyond the limit.
 * Runs after authentication, so every authenticated response carries the headers.
 */
export function rateLimit(db: Pool): Middleware {
  return async (ctx, next) => {
    const { projectId, scopes } = ctx.state.auth;
    // Every key counts on the project's one counter; a key other than admin stops at its share.
    const limit = keyLimit(ctx.state.auth.rateLimitPerHour, scopes);
    const now = Date.now();
    const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
    // A key refused at its share does not count on: its 429s must not eat the admin's reserve.
    const { rows } = await db.query<{ requests: number }>(
      `insert into rate_limit_windows (project_id, window_start, requests) values ($1, $2, 1)
       on conflict (project_id, window_start) do update set requests = rate_limit_windows.requests + 1
         where rate_limit_windows.requests < $3
       returning requests`,
      [projectId, windowStart, scopes.includes('admin') ? 2 ** 31 - 1 : limit],
    );
    const used = rows[0]?.requests ?? limit + 1;
    if (used === 1) {
      // First request of a new window: drop the project's old windows.
      await db.query('delete from rate_limit_windows where project_id = $1 and window_start < $2', [
        projectId,
        windowStart,
      ]);
    }
    const window = windowOf(now, limit, used);
    ctx.set({
      'X-RateLimit-Limit': String(window.limit),
      'X-RateLimit-Remaining': String(window.remaining),
      'X-RateLimit-Reset': String(window.reset),
    });
    if (used > limit) {
      const retryAfter = Math.max(1, Math.ceil(window.reset - now / 1000));
      throw new ApiError(
        429,
        'rate_limited',
        `Rate limit of ${limit} requests per hour exceeded; retry after ${retryAfter} s.`,
        { limit, reset: window.reset },
        { 'Retry-After': String(retryAfter) },
      );
    }
    ctx.state.rateWindow = { start: windowStart, used };
    await next();
  };
}
