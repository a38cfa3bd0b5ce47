import { addWindowCounts } from '../store/rate-limit-windows.js';
import type { Middleware } from 'koa';
import type { Pool } from '../lib/db.js';
import { ApiError, RETRY_AFTER_S, unavailable } from './errors.js';
import { requestWaits } from './waits.js';
import { LocalWindows, browserBudget, eventUserIds } from './browser-budgets.js';

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

/**
 * What a count counts (docs/adr/0085-browser-key-budgets.md): every request of the project (`all`),
 * the requests of its browser keys (`browser`), and the events they send (`browser_events`).
 */
export type Bucket = 'all' | 'browser' | 'browser_events';

/** A project's requests (or events) of one bucket and window, as a settle adds them to the shared count. */
export interface Count {
  projectId: string;
  bucket: Bucket;
  windowStart: Date;
  requests: number;
}

/** Adds the counts to the shared ones and answers the new totals, in the same order. */
export type Settle = (counts: Count[]) => Promise<number[]>;

/** One project's bucket's window as this process knows it. */
interface Tally {
  projectId: string;
  bucket: Bucket;
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
  /**
   * By project and bucket: one window each, the current one (an older window's unsettled requests
   * no longer matter).
   */
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly settleCounts: Settle,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * The count in the window with these `n` (a request, or its events) counted; 'over_limit' when
   * that passes `cap` (not counted); 'unsettled' when what was admitted here went unsettled for
   * longer than UNSETTLED_MAX_MS.
   */
  admit(
    projectId: string,
    windowStart: Date,
    cap: number,
    bucket: Bucket = 'all',
    n = 1,
  ): number | 'over_limit' | 'unsettled' {
    const now = this.clock();
    const key = `${projectId}\u0000${bucket}`;
    let tally = this.tallies.get(key);
    if (tally?.windowStart !== windowStart.getTime()) {
      tally = {
        projectId,
        bucket,
        windowStart: windowStart.getTime(),
        settled: 0,
        unsettled: 0,
        unsettledSince: 0,
        sending: 0,
        sendingSince: 0,
      };
      this.tallies.set(key, tally);
    }
    const oldest = tally.sending > 0 ? tally.sendingSince : tally.unsettled > 0 ? tally.unsettledSince : now;
    if (now - oldest > UNSETTLED_MAX_MS) return 'unsettled';
    const used = tally.settled + tally.sending + tally.unsettled + n;
    if (used > cap) return 'over_limit';
    if (tally.unsettled === 0) tally.unsettledSince = now;
    tally.unsettled += n;
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
    const due = [...this.tallies.values()].filter((t) => t.unsettled > 0);
    if (due.length === 0) return;
    for (const t of due) {
      t.sending = t.unsettled;
      t.sendingSince = t.unsettledSince;
      t.unsettled = 0;
    }
    try {
      const totals = await this.settleCounts(
        due.map((t) => ({
          projectId: t.projectId,
          bucket: t.bucket,
          windowStart: new Date(t.windowStart),
          requests: t.sending,
        })),
      );
      due.forEach((t, i) => {
        t.settled = totals[i]!;
        t.sending = 0;
      });
    } catch {
      for (const t of due) {
        // The requests sent are older than any admitted since.
        t.unsettled += t.sending;
        t.unsettledSince = t.sendingSince;
        t.sending = 0;
      }
    }
  }
}

/** Adds the counts to the projects' rows of `rate_limit_windows` (shared by every API process) and answers each one's total. */
export async function settleCounts(db: Pool, counts: Count[]): Promise<number[]> {
  const rows = await addWindowCounts(db, counts);
  const totals = new Map(rows.map((r) => [`${r.project_id}\u0000${r.bucket}`, r.requests]));
  return counts.map((c) => totals.get(`${c.projectId}\u0000${c.bucket}`)!);
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
  count(
    projectId: string,
    windowStart: Date,
    cap: number,
    bucket: Bucket = 'all',
    n = 1,
  ): number | 'over_limit' | 'unsettled' {
    const counted = this.tallies.admit(projectId, windowStart, cap, bucket, n);
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

const UNSETTLED_MESSAGE = 'The request counter could not be stored; nothing was applied. Retry the request later.';

/** The 429 of a window: when to retry, in the message, the header and `details.reset`. */
function overLimit(message: string, limit: number, window: Window, now: number, details: Record<string, unknown> = {}) {
  const retryAfter = Math.max(1, Math.ceil(window.reset - now / 1000));
  return new ApiError(
    429,
    'rate_limited',
    `${message}; retry after ${retryAfter} s.`,
    { limit, reset: window.reset, ...details },
    { 'Retry-After': String(retryAfter) },
  );
}

const windowStartOf = (now: number) => new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);

/**
 * The hourly limits (docs/api.md, "Rate limits"; docs/adr/0085-browser-key-budgets.md): `requests`
 * counts each authenticated request, `events` the events of an ingest request sent with a browser
 * key (after its body is read).
 */
export function rateLimits(db: Pool): { requests: Middleware; events: Middleware } {
  const counter = new RequestCounter(db);
  const perAddress = new LocalWindows(WINDOW_MS);
  const eventsPerAddress = new LocalWindows(WINDOW_MS);
  const eventsPerId = new LocalWindows(WINDOW_MS);
  const counted = (n: number | 'over_limit' | 'unsettled', cap: number) => {
    if (n === 'unsettled') throw unavailable(UNSETTLED_MESSAGE, RETRY_AFTER_S);
    return n === 'over_limit' ? cap + 1 : n;
  };

  /**
   * Counts the request against the project's hourly limit (RequestCounter), sets X-RateLimit-* on
   * the response, and answers 429 beyond the limit; 503 when this process could not settle its
   * counts for UNSETTLED_MAX_MS (no headers then: the count is not known). A browser key's request
   * counts on the browser keys' bucket and its client address's share first, and its headers are
   * the bucket's. Runs after authentication, so every other authenticated response carries them.
   */
  const requests: Middleware = async (ctx, next) => {
    const { projectId, scopes, allowedOrigins, rateLimitPerHour } = ctx.state.auth;
    const now = Date.now();
    const windowStart = windowStartOf(now);
    let shown: { limit: number; used: number } | undefined;
    if (allowedOrigins !== null) {
      const budget = browserBudget(rateLimitPerHour);
      const address = [{ key: `${projectId}\u0000${ctx.request.ip}`, n: 1 }];
      if (perAddress.over(now, address, budget.requestsPerAddress)) {
        throw overLimit(
          `This client address sent the ${budget.requestsPerAddress} requests per hour one address may send with a browser key`,
          budget.requestsPerAddress,
          windowOf(now, budget.requestsPerAddress, budget.requestsPerAddress + 1),
          now,
          { bucket: 'browser_address' },
        );
      }
      const used = counted(counter.count(projectId, windowStart, budget.requests, 'browser'), budget.requests);
      const window = windowOf(now, budget.requests, used);
      if (used > budget.requests) {
        ctx.set(headersOf(window));
        throw overLimit(
          `The project's browser keys used their ${budget.requests} requests of this hour (server and admin keys keep the rest)`,
          budget.requests,
          window,
          now,
          { bucket: 'browser' },
        );
      }
      perAddress.add(now, address);
      shown = { limit: budget.requests, used };
    }
    // Every key counts on the project's one counter; a key other than admin stops at its share.
    const limit = keyLimit(rateLimitPerHour, scopes);
    // A key refused at its share does not count on: its 429s must not eat the admin's reserve.
    const used = counted(counter.count(projectId, windowStart, scopes.includes('admin') ? 2 ** 31 - 1 : limit), limit);
    const window = windowOf(now, limit, used);
    ctx.set(headersOf(shown && used <= limit ? windowOf(now, shown.limit, shown.used) : window));
    if (used > limit) throw overLimit(`Rate limit of ${limit} requests per hour exceeded`, limit, window, now);
    ctx.state.rateWindow = { start: windowStart, used };
    await next();
  };

  /**
   * The events of an ingest request sent with a browser key, on the browser keys' events bucket and
   * the shares of the client address and of each user (anonymous) id; counted before the body is
   * validated (a refused body was still sent).
   */
  const events: Middleware = async (ctx, next) => {
    const { projectId, allowedOrigins, rateLimitPerHour } = ctx.state.auth;
    if (allowedOrigins === null) {
      await next();
      return;
    }
    const ids = eventUserIds(ctx.request.json);
    const n = ids.length;
    const now = Date.now();
    const budget = browserBudget(rateLimitPerHour);
    const window = (cap: number) => windowOf(now, cap, cap + 1);
    const address = [{ key: `${projectId}\u0000${ctx.request.ip}`, n }];
    if (eventsPerAddress.over(now, address, budget.eventsPerAddress)) {
      throw overLimit(
        `This client address sent the ${budget.eventsPerAddress} events per hour one address may send with a browser key`,
        budget.eventsPerAddress,
        window(budget.eventsPerAddress),
        now,
        { bucket: 'browser_address_events' },
      );
    }
    const perId = new Map<string, number>();
    for (const id of ids) perId.set(id, (perId.get(id) ?? 0) + 1);
    const idCounts = [...perId].map(([id, k]) => ({ key: `${projectId}\u0000${id}`, n: k }));
    if (eventsPerId.over(now, idCounts, budget.eventsPerId) !== undefined) {
      throw overLimit(
        `A user id of this request reached the ${budget.eventsPerId} events per hour one id may send with a browser key`,
        budget.eventsPerId,
        window(budget.eventsPerId),
        now,
        { bucket: 'browser_user_events' },
      );
    }
    const used = counted(
      counter.count(projectId, windowStartOf(now), budget.events, 'browser_events', n),
      budget.events,
    );
    if (used > budget.events) {
      throw overLimit(
        `The project's browser keys sent their ${budget.events} events of this hour`,
        budget.events,
        windowOf(now, budget.events, used),
        now,
        { bucket: 'browser_events' },
      );
    }
    eventsPerAddress.add(now, address);
    eventsPerId.add(now, idCounts);
    await next();
  };

  return { requests, events };
}

const headersOf = (window: Window) => ({
  'X-RateLimit-Limit': String(window.limit),
  'X-RateLimit-Remaining': String(window.remaining),
  'X-RateLimit-Reset': String(window.reset),
});
