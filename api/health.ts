import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import type { Admin } from 'kafkajs';
import type { Pool } from '../lib/db.js';
import { pingPostgres } from '../store/health.js';
import { takePercentiles } from './waits.js';

export type Check = { status: 'ok' | 'down'; latency_ms: number; error?: string };
export type Checks = { postgres: Check; kafka: Check; registry: Check };

const PROBE_TIMEOUT_MS = 2000;

async function timed(probe: () => Promise<unknown>): Promise<Check> {
  const start = performance.now();
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`timed out after ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS).unref(),
      ),
    ]);
    return { status: 'ok', latency_ms: Math.round(performance.now() - start) };
  } catch (err) {
    return { status: 'down', latency_ms: Math.round(performance.now() - start), error: (err as Error).message };
  }
}

/**
 * The API's view of its dependencies, probed on a timer of its own: a health request reads the
 * last result and never makes the API probe Postgres, Kafka and the registry on a caller's
 * behalf (so health checks cannot be used to load them). Also the process's event-loop delay.
 */
export class HealthMonitor {
  private last: { at: number; checks: Checks } | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private probing: Promise<void> | undefined;
  private since = Date.now();

  constructor(
    private readonly deps: { db: Pool; admin: Admin; registryUrl: string },
    everyMs = 5000,
  ) {
    this.loop.enable();
    this.timer = setInterval(() => void this.probe(), everyMs);
    this.timer.unref();
    void this.probe();
  }

  /** The latest checks; the first call waits for the first probe. */
  async checks(): Promise<{ at: number; checks: Checks }> {
    if (!this.last) await this.probing;
    return this.last!;
  }

  /** Event-loop delay of this process since the previous call (or its start), in ms. */
  eventLoop() {
    const since = this.since;
    this.since = Date.now();
    return { since: new Date(since).toISOString(), ...takePercentiles(this.loop, 1e6) };
  }

  stop(): void {
    clearInterval(this.timer);
    this.loop.disable();
  }

  private probe(): Promise<void> {
    this.probing ??= (async () => {
      const { db, admin, registryUrl } = this.deps;
      const [postgres, kafka, registry] = await Promise.all([
        timed(() => pingPostgres(db)),
        timed(async () => {
          const cluster = await admin.describeCluster();
          if (cluster.brokers.length === 0) throw new Error('no brokers');
        }),
        timed(async () => {
          const res = await fetch(`${registryUrl}/subjects`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
        }),
      ]);
      this.last = { at: Date.now(), checks: { postgres, kafka, registry } };
    })().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }
}

export const healthy = (checks: Checks) => Object.values(checks).every((c) => c.status === 'ok');
