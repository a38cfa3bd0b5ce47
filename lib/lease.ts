import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceError } from './errors.js';

/**
 * How long an API process answers from what it read of Postgres about a key (project, scopes,
 * rate limit) or about erasures (the epoch of users' keys) before it reads again. A change to
 * either answers only once every such reading made before it has expired (`outlastLeases`), so a
 * request sent after the change's answer always sees it (docs/adr/0073-one-second-lease.md).
 */
export const LEASE_MS = 1000;

/** Node's timers never fire early by more than this; the processes of one host share a clock rate. */
const TIMER_SLACK_MS = 100;

/** Waits until every lease taken before the call has expired, in every process. */
export const outlastLeases = (): Promise<void> => sleep(LEASE_MS + TIMER_SLACK_MS);

/** A read that had not answered when the lease it would give ended: its callers stop waiting for it (retriable). */
export class LeaseUnanswered extends ServiceError {
  constructor() {
    super('lease_unanswered', 'the read did not answer within its lease', { retriable: true });
  }
}

interface Reading<T> {
  since: number;
  /** The read, or `LeaseUnanswered` once the lease it would give has ended. */
  value: Promise<T>;
}

/**
 * A value read from Postgres, served for `LEASE_MS` from the moment its read started (a read
 * finished later saw nothing older).
 *
 * A value served in the second half of its lease is read again in the background, so that while
 * Postgres answers within half a lease nobody waits for it (docs/adr/0005). A caller with no lease
 * held shares the read in flight if it started less than `LEASE_MS` ago, and otherwise starts its
 * own; it waits at most until that read's lease would end, then gets `LeaseUnanswered`: a slow or
 * stopped Postgres costs it a lease at most, never a longer wait.
 */
export class Lease<T> {
  private held: { since: number; value: T } | undefined;
  private reading: Reading<T> | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly ms = LEASE_MS,
  ) {}

  get(): Promise<T> {
    const now = performance.now();
    const held = this.held;
    if (held && now - held.since < this.ms) {
      if (now - held.since >= this.ms / 2 && !this.reading) this.start(now);
      return Promise.resolve(held.value);
    }
    const reading = this.reading && now - this.reading.since < this.ms ? this.reading : this.start(now);
    return reading.value;
  }

  private start(now: number): Reading<T> {
    const read = this.read();
    let timer: NodeJS.Timeout | undefined;
    const forget = () => {
      clearTimeout(timer);
      if (this.reading === reading) this.reading = undefined;
    };
    const ended = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        forget();
        reject(new LeaseUnanswered());
      }, this.ms);
      timer.unref();
    });
    const reading = { since: now, value: Promise.race([read, ended]) };
    // A refresh nobody waits for must not reject unheard.
    reading.value.catch(() => undefined);
    this.reading = reading;
    read.then((value) => {
      if (!this.held || this.held.since < reading.since) this.held = { since: reading.since, value };
      forget();
    }, forget);
    return reading;
  }
}
