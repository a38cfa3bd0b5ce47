import { batchLength, outcomeOf, parseRetryAfter, refusedIndex, retryDelay } from './policy.js';

/** What came back from one POST; status 0 when nothing did (offline, refused by CORS). */
export interface Reply {
  status: number;
  retryAfter: string | null;
  /** the JSON body of a 400, to learn which event was refused */
  body?: unknown;
}

/** POSTs a JSON text to a path under the API base (`/events/batch`, `/users/identify`). */
export type Post = (path: string, body: string, keepalive: boolean) => Promise<Reply>;

/** One request-to-be: an event (batched with its neighbours) or an identify call (sent alone). */
export interface Item {
  path: string;
  payload: object;
}

export const EVENTS_PATH = '/events/batch';
/**
 * Browsers allow 64 KiB of keepalive bodies in flight; requests stay below it so any of them
 * survives the page being closed.
 */
export const KEEPALIVE_BYTES = 60_000;

export interface SenderOptions {
  post: Post;
  /** send once this many events wait (default 50) */
  batchSize?: number;
  /** or this long after the first one arrived (default 1000 ms) */
  intervalMs?: number;
  /** oldest events are dropped beyond this many (default 1000) */
  maxQueue?: number;
  warn?: (message: string) => void;
  now?: () => number;
  random?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

interface Entry extends Item {
  id: number;
  bytes: number;
  inFlight: boolean;
}

const encoder = new TextEncoder();

/**
 * The tracker's outbox: batches events (≤ batchSize, ≤ intervalMs), one request at a time,
 * retries with backoff that honours Retry-After, drops only what the service refuses for good.
 * Events keep their message_id across retries, so a repeat is never counted twice.
 */
export class Sender {
  private readonly queue: Entry[] = [];
  private readonly waiters: { upTo: number; resolve: () => void }[] = [];
  private lastId = 0;
  private inFlight = 0;
  private timer: unknown;
  private blockedUntil = 0;
  private attempt = 0;
  /** after a 413: at most this many events in the next request */
  private cap = Infinity;
  private readonly o: Required<SenderOptions>;

  constructor(options: SenderOptions) {
    // Options left undefined keep their defaults.
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as SenderOptions;
    this.o = {
      batchSize: 50,
      intervalMs: 1000,
      maxQueue: 1000,
      warn: (m) => console.warn(`pi: ${m}`),
      now: () => Date.now(),
      random: Math.random,
      setTimer: (run, ms) => setTimeout(run, ms),
      clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      ...given,
    };
  }

  add(item: Item): void {
    const bytes = encoder.encode(JSON.stringify(item.payload)).length;
    this.queue.push({ ...item, id: ++this.lastId, bytes, inFlight: false });
    const excess = this.queue.length - this.o.maxQueue;
    if (excess > 0) {
      const dropped = this.queue.filter((e) => !e.inFlight).slice(0, excess);
      this.remove(dropped);
      this.o.warn(`queue full: dropped the ${dropped.length} oldest event(s)`);
    }
    if (this.waiting().length >= this.o.batchSize) this.pump();
    else this.wake(this.o.intervalMs);
  }

  /** Resolves once everything added before the call has been acknowledged (or refused for good). */
  flush(): Promise<void> {
    const upTo = this.lastId;
    if (!this.queue.some((e) => e.id <= upTo)) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ upTo, resolve });
      this.pump();
    });
  }

  /**
   * The page is going away: send everything now with keepalive (unless the service asked us to
   * wait). Requests already in flight continue; the caller keeps a copy (items()) in storage.
   */
  unload(): void {
    while (this.o.now() >= this.blockedUntil && this.waiting().length > 0) {
      const before = this.inFlight;
      this.sendNext();
      if (this.inFlight === before) break;
    }
  }

  /** Everything not yet acknowledged, oldest first. */
  items(): Item[] {
    return this.queue.map(({ path, payload }) => ({ path, payload }));
  }

  /** Forgets everything queued (opt-out); requests in flight cannot be called back. */
  clear(): void {
    this.remove(this.queue.filter((e) => !e.inFlight));
  }

  private waiting(): Entry[] {
    return this.queue.filter((e) => !e.inFlight);
  }

  private wake(ms: number): void {
    if (this.timer !== undefined) return;
    this.timer = this.o.setTimer(() => {
      this.timer = undefined;
      this.pump();
    }, ms);
  }

  private pump(): void {
    if (this.timer !== undefined) {
      this.o.clearTimer(this.timer);
      this.timer = undefined;
    }
    if (this.inFlight > 0 || this.waiting().length === 0) return;
    const wait = this.blockedUntil - this.o.now();
    if (wait > 0) this.wake(wait);
    else this.sendNext();
  }

  private sendNext(): void {
    const waiting = this.waiting();
    const first = waiting[0];
    if (!first) return;
    const batch =
      first.path === EVENTS_PATH
        ? waiting.slice(
            0,
            batchLength(
              waiting.map((e) => (e.path === EVENTS_PATH ? e.bytes : Infinity)),
              Math.min(this.o.batchSize, this.cap),
              KEEPALIVE_BYTES,
            ),
          )
        : [first];
    if (batch.length === 0) return;
    const body =
      first.path === EVENTS_PATH
        ? JSON.stringify({ events: batch.map((e) => e.payload) })
        : JSON.stringify(first.payload);
    for (const e of batch) e.inFlight = true;
    this.inFlight++;
    this.o
      .post(first.path, body, encoder.encode(body).length <= KEEPALIVE_BYTES)
      .catch((): Reply => ({ status: 0, retryAfter: null }))
      .then((reply) => this.answered(batch, reply))
      .catch((err: unknown) => this.o.warn(String(err)));
  }

  private answered(batch: Entry[], reply: Reply): void {
    this.inFlight--;
    for (const e of batch) e.inFlight = false;
    const outcome = outcomeOf(reply.status);
    if (outcome === 'retry') {
      this.attempt++;
      const ms = retryDelay(this.attempt, parseRetryAfter(reply.retryAfter, this.o.now()), this.o.random());
      this.blockedUntil = this.o.now() + ms;
    } else {
      this.attempt = 0;
      if (outcome === 'sent') {
        this.cap = Infinity;
        this.remove(batch);
      } else if (outcome === 'split' && batch.length > 1) {
        this.cap = Math.ceil(batch.length / 2);
      } else {
        const index = outcome === 'refused' && batch.length > 1 ? refusedIndex(reply.body) : undefined;
        const dropped = index !== undefined && batch[index] ? [batch[index]] : batch;
        this.remove(dropped);
        this.o.warn(`the service refused ${dropped.length} event(s) with status ${reply.status}; they were dropped`);
      }
    }
    if (this.waiters.length > 0 || this.waiting().length >= this.o.batchSize) this.pump();
    else if (this.queue.length > 0) this.wake(Math.max(this.o.intervalMs, this.blockedUntil - this.o.now()));
  }

  private remove(entries: Entry[]): void {
    for (const e of entries) {
      const at = this.queue.indexOf(e);
      if (at >= 0) this.queue.splice(at, 1);
    }
    const oldest = this.queue[0]?.id ?? Infinity;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!;
      if (w.upTo < oldest) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }
}
