import type { Admin } from 'kafkajs';
import type { Pool } from '../../lib/db.js';
import { type Route, defineRoute } from '../route.js';

export interface HealthDeps {
  db: Pool;
  admin: Admin;
  registryUrl: string;
}

type Check = { status: 'ok' | 'down'; latency_ms: number; error?: string };

async function timed(probe: () => Promise<unknown>): Promise<Check> {
  const start = performance.now();
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 2000 ms')), 2000).unref()),
    ]);
    return { status: 'ok', latency_ms: Math.round(performance.now() - start) };
  } catch (err) {
    return { status: 'down', latency_ms: Math.round(performance.now() - start), error: (err as Error).message };
  }
}

/** GET /health (no key): each dependency probed for real; 503 when any is down. */
export function healthRoutes(deps: HealthDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      tag: 'Service',
      summary: 'Health of Postgres, Kafka and the schema registry (no key needed)',
      success: {
        status: 200,
        description: '{ status: ok, checks: { postgres, kafka, registry } }; 503 with status degraded',
      },
      async handle(ctx) {
        const [postgres, kafka, registry] = await Promise.all([
          timed(() => deps.db.query('select 1')),
          timed(async () => {
            const cluster = await deps.admin.describeCluster();
            if (cluster.brokers.length === 0) throw new Error('no brokers');
          }),
          timed(async () => {
            const res = await fetch(`${deps.registryUrl}/subjects`, { signal: AbortSignal.timeout(2000) });
            if (!res.ok) throw new Error(`HTTP ${res.status}`);
          }),
        ]);
        const ok = [postgres, kafka, registry].every((c) => c.status === 'ok');
        ctx.status = ok ? 200 : 503;
        ctx.body = { status: ok ? 'ok' : 'degraded', checks: { postgres, kafka, registry } };
      },
    }),
  ];
}
