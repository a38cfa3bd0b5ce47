import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Paces a background pass over a project's history (a new job's or goal's first pass): after each
 * step it rests long enough that its steps take at most `share` of the time it runs. A backfill
 * then leaves the rest of a busy machine to live ingest and the processors (docs/decisions.md,
 * "On a busy machine, accepting comes first"); a share of 1 never rests.
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
    const worked = this.now() - this.since;
    if (this.share < 1 && worked > 0) await this.rest((worked * (1 - this.share)) / this.share);
    this.since = this.now();
  }
}
