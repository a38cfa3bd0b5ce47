import { setTimeout as sleep } from 'node:timers/promises';

/** How long to rest after `workedMs` of work so that the work takes `share` of the time. */
export const restFor = (workedMs: number, share: number): number =>
  share < 1 && workedMs > 0 ? (workedMs * (1 - share)) / share : 0;

/** How a loop's runs share the machine: they take at most `share` of its time, resting at most `maxRestMs`. */
export interface RunShare {
  share: number;
  maxRestMs: number;
}

/**
 * The longest rest of a worker that keeps derived tables: the bound on how stale its pacing
 * makes them beyond a pass's own length.
 */
export const WORKER_MAX_REST_MS = 60_000;

/** The pace of the workers that keep derived tables (jobs, workflows, cohorts): PI_WORKER_SHARE_PERCENT. */
export const workerPace = (config: { workerShare: number }): RunShare => ({
  share: config.workerShare,
  maxRestMs: WORKER_MAX_REST_MS,
});

/**
 * Paces a background pass over a project's history (a new job's or goal's first pass): after each
 * step it rests long enough that its steps take at most `share` of the time it runs. A backfill
 * then leaves the rest of a busy machine to live ingest and the processors
 * (docs/adr/0053-accepting-comes-first.md); a share of 1 never rests.
 */
export class BackfillPace {
  private since: number;

  constructor(
    private readonly share: number,
    private readonly now: () => number = () => performance.now(),
    private readonly rest: (ms: number) => Promise<unknown> = (ms) => sleep(ms),
  ) {
    if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], not ${share}`);
    this.since = now();
  }

  /** Called after a step: rests in proportion to the work since the previous call. */
  async step(): Promise<void> {
    const rest = restFor(this.now() - this.since, this.share);
    if (rest > 0) await this.rest(rest);
    this.since = this.now();
  }
}
