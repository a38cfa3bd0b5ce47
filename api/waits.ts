import { type Histogram, type RecordableHistogram, createHistogram } from 'node:perf_hooks';

/**
 * What the ingest path waits for outside the process, in the order a request meets it. `auth` and
 * `rate_limit` are Postgres's answers to key reads and counter settles, mostly in the background:
 * a request waits for a key read only when its key holds no lease (docs/adr/0005).
 */
export const WAITS = ['auth', 'rate_limit', 'user_keys', 'kafka'] as const;
export type Wait = (typeof WAITS)[number];

export interface WaitSummary {
  count: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/**
 * How long this process waited on Postgres (key reads, rate-counter settles, users' keys) and on
 * Kafka, since the previous report: where an ingest request's time goes when the API is slow
 * while its own CPU is not (GET /health/details).
 */
export class RequestWaits {
  private readonly histograms = new Map<Wait, RecordableHistogram>(WAITS.map((w) => [w, createHistogram()]));

  /** `work`, its wait recorded under `wait` whether it succeeds or not. */
  async timed<T>(wait: Wait, work: Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work;
    } finally {
      // In microseconds: a histogram records integers of 1 at least.
      this.histograms.get(wait)!.record(Math.max(1, Math.round((performance.now() - start) * 1000)));
    }
  }

  /** Per wait, what was recorded since the previous report (which this one starts again). */
  report(): Record<Wait, WaitSummary> {
    const summary = {} as Record<Wait, WaitSummary>;
    for (const [wait, h] of this.histograms) {
      const count = h.count;
      const taken = takePercentiles(h, 1000);
      summary[wait] = count === 0 ? { count, p50_ms: 0, p99_ms: 0, max_ms: 0 } : { count, ...taken };
    }
    return summary;
  }
}

/**
 * A histogram's p50, p99 and max in ms (one decimal) from values recorded in `perMs` units per ms,
 * and the histogram started again: what /health/details reports since its previous call.
 */
export function takePercentiles(h: Histogram & { reset(): void }, perMs: number) {
  const ms = (v: number) => Math.round((v / perMs) * 10) / 10;
  const taken = { p50_ms: ms(h.percentile(50)), p99_ms: ms(h.percentile(99)), max_ms: ms(h.max) };
  h.reset();
  return taken;
}

/** This process's waits: every middleware and route of the process records in the one collector. */
export const requestWaits = new RequestWaits();
