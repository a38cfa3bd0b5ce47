import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long an API process answers from what it read of Postgres about a key (project, scopes,
 * rate limit) or about erasures (the epoch of users' keys) before it reads again. A change to
 * either answers only once every such reading made before it has expired (`outlastLeases`), so a
 * request sent after the change's answer always sees it (docs/decisions.md).
 */
export const LEASE_MS = 1000;

/** Node's timers never fire early by more than this; the processes of one host share a clock rate. */
const TIMER_SLACK_MS = 100;

/** Waits until every lease taken before the call has expired, in every process. */
export const outlastLeases = (): Promise<void> => sleep(LEASE_MS + TIMER_SLACK_MS);

/**
 * A value read from Postgres, served for `LEASE_MS` from the moment its read started (a read
 * finished later saw nothing older). Callers that come while a read is in flight share it, as
 * long as it started less than `LEASE_MS` ago; otherwise they start their own.
 */
export class Lease<T> {
  private held: { since: number; value: T } | undefined;
  private reading: { since: number; value: Promise<T> } | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly ms = LEASE_MS,
  ) {}

  get(): Promise<T> {
    const now = performance.now();
    if (this.held && now - this.held.since < this.ms) return Promise.resolve(this.held.value);
    if (this.reading && now - this.reading.since < this.ms) return this.reading.value;
    const reading = { since: now, value: this.read() };
    this.reading = reading;
    reading.value.then(
      (value) => {
        if (!this.held || this.held.since < reading.since) this.held = { since: reading.since, value };
        if (this.reading === reading) this.reading = undefined;
      },
      () => {
        if (this.reading === reading) this.reading = undefined;
      },
    );
    return reading.value;
  }
}
