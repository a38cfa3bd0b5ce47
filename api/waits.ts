import { type RecordableHistogram, createHistogram } from 'node:perf_hooks';

/** What an API request waits for outside its own process, in the order an ingest request does. */
export const WAITS = ['auth', 'rate_limit', 'user_keys', 'kafka'] as const;
export type Wait = (typeof WAITS)[number];

export interface WaitSummary {
  count: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/**
 * How long this process's requests waited on Postgres (the key, the rate counter, users' keys)
 * and on Kafka, since the previous report: where an ingest request's time goes when the API is
 * slow while its own CPU is not (GET /health/details).
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
    const ms = (us: number) => Math.round(us / 100) / 10;
    const summary = {} as Record<Wait, WaitSummary>;
    for (const [wait, h] of this.histograms) {
      summary[wait] =
        h.count === 0
          ? { count: 0, p50_ms: 0, p99_ms: 0, max_ms: 0 }
          : { count: h.count, p50_ms: ms(h.percentile(50)), p99_ms: ms(h.percentile(99)), max_ms: ms(h.max) };
      h.reset();
    }
    return summary;
  }
}

/** This process's waits: every middleware and route of the process records in the one collector. */
export const requestWaits = new RequestWaits();
