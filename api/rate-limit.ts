import type { Middleware } from 'koa';
import type { Pool } from '../lib/db.js';
import { ApiError } from './errors.js';
import { requestWaits } from './waits.js';

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

interface Waiter {
  resolve(used: number | undefined): void;
  reject(err: unknown): void;
}

/**
 * The project's hourly counters in Postgres, shared by every API process. Requests of one project,
 * window and cap that arrive while a statement for them is in flight wait and are counted together
 * by the next one: a busy project's row is updated once per round trip, not once per request.
 * The count stays exact: each statement admits at most what is left below its cap, in arrival order.
 */
export class RequestCounter {
  /** Per project, window and cap: whether a statement is in flight, and who waits for the next. */
  private readonly queues = new Map<string, { waiting: Waiter[] }>();

  constructor(private readonly db: Pool) {}

  /** This request's number in the window, or undefined when the cap was already reached. */
  count(projectId: string, windowStart: Date, cap: number): Promise<number | undefined> {
    const key = `${projectId}/${windowStart.getTime()}/${cap}`;
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.waiting.push({ resolve, reject });
        return;
      }
      this.queues.set(key, { waiting: [] });
      void this.flush(key, projectId, windowStart, cap, [{ resolve, reject }]);
    });
  }

  private async flush(key: string, projectId: string, windowStart: Date, cap: number, batch: Waiter[]): Promise<void> {
    try {
      const { rows } = await this.db.query<{ requests: number; last_granted: number }>(
        `insert into rate_limit_windows (project_id, window_start, requests, last_granted)
           values ($1, $2, least($3::int, $4::int), least($3::int, $4::int))
         on conflict (project_id, window_start) do update
           set requests = rate_limit_windows.requests + least($3::int, greatest(0, $4::int - rate_limit_windows.requests)),
               last_granted = least($3::int, greatest(0, $4::int - rate_limit_windows.requests))
         returning requests, last_granted`,
        [projectId, windowStart, batch.length, cap],
      );
      const { requests, last_granted: granted } = rows[0]!;
      const before = requests - granted;
      if (before === 0 && granted > 0) {
        // First requests of a new window: drop the project's old windows.
        await this.db.query('delete from rate_limit_windows where project_id = $1 and window_start < $2', [
          projectId,
          windowStart,
        ]);
      }
      batch.forEach((waiter, i) => waiter.resolve(i < granted ? before + i + 1 : undefined));
    } catch (err) {
      for (const waiter of batch) waiter.reject(err);
    }
    const queue = this.queues.get(key)!;
    if (queue.waiting.length === 0) {
      this.queues.delete(key);
      return;
    }
    const next = queue.waiting;
    queue.waiting = [];
    void this.flush(key, projectId, windowStart, cap, next);
  }
}

/**
 * Counts the request against the project's hourly limit (RequestCounter), sets X-RateLimit-* on
 * the response, and answers 429 beyond the limit.
 * Runs after authentication, so every authenticated response carries the headers.
 */
export function rateLimit(db: Pool): Middleware {
  const counter = new RequestCounter(db);
  return async (ctx, next) => {
    const { projectId, scopes } = ctx.state.auth;
    // Every key counts on the project's one counter; a key other than admin stops at its share.
    const limit = keyLimit(ctx.state.auth.rateLimitPerHour, scopes);
    const now = Date.now();
    const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
    // A key refused at its share does not count on: its 429s must not eat the admin's reserve.
    const counted = await requestWaits.timed(
      'rate_limit',
      counter.count(projectId, windowStart, scopes.includes('admin') ? 2 ** 31 - 1 : limit),
    );
    const used = counted ?? limit + 1;
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
