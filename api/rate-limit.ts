import type { Middleware } from 'koa';
import type { Pool } from '../lib/db.js';
import { ApiError, RETRY_AFTER_S, unavailable } from './errors.js';
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

/** Fixed hourly windows aligned to the clock hour (pure: the count comes from `RequestTallies`). */
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
 * How often an API process settles its counts with Postgres. Each process admits from the count it
 * last settled plus its own since, so a project may pass its limit by what its processes admit in
 * one interval and round trip (docs/adr/0005).
 */
export const SETTLE_MS = 250;

/**
 * Requests admitted here that Postgres has not counted for this long stop further admissions of
 * the project (503): a process that cannot settle would otherwise admit without bound.
 */
export const UNSETTLED_MAX_MS = 2000;

/** A project's requests of one window, as a settle adds them to the shared count. */
export interface Count {
  projectId: string;
  windowStart: Date;
  requests: number;
}

/** Adds the counts to the shared ones and answers the new totals, in the same order. */
export type Settle = (counts: Count[]) => Promise<number[]>;

/** One project's window as this process knows it. */
interface Tally {
  windowStart: number;
  /** The shared count as the last settle answered it (every process's requests). */
  settled: number;
  /** Admitted here and not yet sent, since when; and those in the settle in flight, since when. */
  unsettled: number;
  unsettledSince: number;
  sending: number;
  sendingSince: number;
}

/**
 * Admission to the projects' hourly limits, decided in the process (pure: the clock and the
 * settle are given): a request's number is the count last settled plus what this process admitted
 * since, and `settle` sends the latter in one statement for every project. A failed settle's
 * requests go with the next one; a settle whose answer was lost may count them twice, never not.
 */
export class RequestTallies {
  /** By project: one window each, the current one (an older window's unsettled requests no longer matter). */
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly settleCounts: Settle,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * This request's number in the window, counted; 'over_limit' beyond `cap` (not counted);
   * 'unsettled' when requests admitted here went unsettled for longer than UNSETTLED_MAX_MS.
   */
  admit(projectId: string, windowStart: Date, cap: number): number | 'over_limit' | 'unsettled' {
    const now = this.clock();
    let tally = this.tallies.get(projectId);
    if (tally?.windowStart !== windowStart.getTime()) {
      tally = {
        windowStart: windowStart.getTime(),
        settled: 0,
        unsettled: 0,
        unsettledSince: 0,
        sending: 0,
        sendingSince: 0,
      };
      this.tallies.set(projectId, tally);
    }
    const oldest = tally.sending > 0 ? tally.sendingSince : tally.unsettled > 0 ? tally.unsettledSince : now;
    if (now - oldest > UNSETTLED_MAX_MS) return 'unsettled';
    const used = tally.settled + tally.sending + tally.unsettled + 1;
    if (used > cap) return 'over_limit';
    if (tally.unsettled++ === 0) tally.unsettledSince = now;
    return used;
  }

  /** Whether some admitted request waits for a settle. */
  get pending(): boolean {
    for (const tally of this.tallies.values()) if (tally.unsettled > 0) return true;
    return false;
  }

  /**
   * Sends every project's unsettled requests in one settle and takes the totals it answers. Never
   * rejects: a failure leaves the requests to the next call. One call at a time (the caller's).
   */
  async settle(): Promise<void> {
    const due = [...this.tallies].filter(([, t]) => t.unsettled > 0);
    if (due.length === 0) return;
    for (const [, t] of due) {
      t.sending = t.unsettled;
      t.sendingSince = t.unsettledSince;
      t.unsettled = 0;
    }
    try {
      const totals = await this.settleCounts(
        due.map(([projectId, t]) => ({ projectId, windowStart: new Date(t.windowStart), requests: t.sending })),
      );
      due.forEach(([, t], i) => {
        t.settled = totals[i]!;
        t.sending = 0;
      });
    } catch {
      for (const [, t] of due) {
        // The requests sent are older than any admitted since.
        t.unsettled += t.sending;
        t.unsettledSince = t.sendingSince;
        t.sending = 0;
      }
    }
  }
}

/**
 * Adds the counts to the projects' rows of `rate_limit_windows` (shared by every API process) in
 * one statement. `last_granted` is what the statement added, so a row whose count is all of it is
 * its window's first: the project's earlier windows are dropped then.
 */
export async function settleCounts(db: Pool, counts: Count[]): Promise<number[]> {
  // Rows in project order, in every process: two settles never wait on each other's locks in a cycle.
  const { rows } = await db.query<{ project_id: string; requests: number }>(
    `with counted as (
       insert into rate_limit_windows as w (project_id, window_start, requests, last_granted)
       select project_id, window_start, requests, requests
       from unnest($1::uuid[], $2::timestamptz[], $3::int[]) as c(project_id, window_start, requests)
       order by project_id
       on conflict (project_id, window_start) do update
         set requests = w.requests + excluded.requests, last_granted = excluded.requests
       returning project_id, window_start, requests, last_granted),
     dropped as (
       delete from rate_limit_windows w using counted c
       where c.requests = c.last_granted and w.project_id = c.project_id and w.window_start < c.window_start)
     select project_id, requests from counted`,
    [counts.map((c) => c.projectId), counts.map((c) => c.windowStart), counts.map((c) => c.requests)],
  );
  const totals = new Map(rows.map((r) => [r.project_id, r.requests]));
  return counts.map((c) => totals.get(c.projectId)!);
}

/**
 * The projects' hourly counts of this process (`RequestTallies`), settled with Postgres
 * SETTLE_MS after a request was admitted, and again while any is left (a failed settle's too).
 * Requests never wait for Postgres here.
 */
export class RequestCounter {
  private readonly tallies: RequestTallies;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Pool) {
    this.tallies = new RequestTallies((counts) => requestWaits.timed('rate_limit', settleCounts(db, counts)));
  }

  /** As `RequestTallies.admit`. */
  count(projectId: string, windowStart: Date, cap: number): number | 'over_limit' | 'unsettled' {
    const counted = this.tallies.admit(projectId, windowStart, cap);
    if (typeof counted === 'number') this.settleSoon();
    return counted;
  }

  private settleSoon(): void {
    // An ended pool (the API closed) can count nothing more.
    if (this.timer || this.db.ending) return;
    this.timer = setTimeout(() => {
      void this.tallies.settle().then(() => {
        this.timer = undefined;
        if (this.tallies.pending) this.settleSoon();
      });
    }, SETTLE_MS);
    this.timer.unref();
  }
}

/**
 * Counts the request against the project's hourly limit (RequestCounter), sets X-RateLimit-* on
 * the response, and answers 429 beyond the limit; 503 when this process could not settle its
 * counts for UNSETTLED_MAX_MS (no headers then: the count is not known).
 * Runs after authentication, so every other authenticated response carries the headers.
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
    const counted = counter.count(projectId, windowStart, scopes.includes('admin') ? 2 ** 31 - 1 : limit);
    if (counted === 'unsettled') {
      throw unavailable(
        'The request counter could not be stored; nothing was applied. Retry the request later.',
        RETRY_AFTER_S,
      );
    }
    const used = counted === 'over_limit' ? limit + 1 : counted;
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
