/**
 * Ingest as producers meet it (issue targets in docs/performance.md): `npm start` with every role,
 * then a burst of `POST /events/batch` bodies on parallel connections (events/s, each process's CPU
 * per event), then single events (`POST /events`) offered at a fixed rate (latency p50/p99), then
 * Kafka's own producer on the same machine (the raw limit the burst is compared with). Bodies are
 * made while sending from events serialised once, so the sender's own CPU stays small; it is
 * reported beside the rest (`bench`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { connectServices } from '../../lib/services.js';
import { ProcessSampler, type ProcessSample, cpuPerEvent, summarizeProcesses } from './processes.js';
import { rawLimits } from './raw-limits.js';
import { startService } from './service.js';
import { percentiles, round } from './stats.js';
import type { TrackedEventInput } from '../../domain/tracked-event.js';
import { simulatedEvents } from './traffic.js';

export interface IngestOptions {
  burstSeconds: number;
  connections: number;
  batch: number;
  /** single events offered per second, and for how long */
  singleRate: number;
  singleSeconds: number;
  rawLimitRecords: number;
  database: string;
  namespace: string;
  port: number;
}

/** The simulator's events serialised once each, without a message id: bodies are joined from them. */
function eventTexts(run: string, n: number): string[] {
  const texts: string[] = [];
  const source = simulatedEvents(run, {
    users: 5000,
    sessions: 4,
    start: Date.now(),
    spanMs: 3_600_000,
    timestamps: false,
  });
  for (let i = 0; i < n; i++) {
    const event: Record<string, unknown> = { ...(source.next().value as TrackedEventInput) };
    delete event.message_id;
    texts.push(JSON.stringify(event).slice(1)); // `"user_id":…}`: a message id goes in front
  }
  return texts;
}

export async function ingestBench(o: IngestOptions) {
  const base = loadConfig();
  const databaseUrl = withDatabase(base.databaseUrl, o.database);
  if (!databaseName(databaseUrl).includes('bench')) throw new Error('the bench database name must say bench');
  process.env.PI_TOPIC_NAMESPACE = o.namespace;
  const env = {
    DATABASE_URL: databaseUrl,
    PI_TOPIC_NAMESPACE: o.namespace,
    PORT: String(o.port),
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig({ ...process.env, ...env });
  const service = await startService(env, [], '.bench/ingest-service.log');
  const services = connectServices(config, createLogger('error'), 2);
  const run = Date.now().toString(36);
  const texts = eventTexts(run, 20_000);
  let made = 0;
  /** `n` events in a body, each with a message id of its own. */
  const body = (n: number) => {
    const parts: string[] = [];
    for (let i = 0; i < n; i++, made++) parts.push(`{"message_id":"${run}-${made}",${texts[made % texts.length]!}`);
    return n === 1 ? parts[0]! : `{"events":[${parts.join(',')}]}`;
  };
  const post = async (path: string, text: string) => {
    const res = await fetch(`${service.baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.adminKey}`, 'Content-Type': 'application/json' },
      body: text,
    });
    await res.arrayBuffer();
    return res.status;
  };
  const sampler = new ProcessSampler();
  const sampled = async <T>(work: () => Promise<T>) => {
    const samples: ProcessSample[] = [sampler.sample()];
    const timer = setInterval(() => samples.push(sampler.sample()), 1000);
    const start = performance.now();
    try {
      const result = await work();
      samples.push(sampler.sample());
      return { result, seconds: (performance.now() - start) / 1000, processes: summarizeProcesses(samples) };
    } finally {
      clearInterval(timer);
    }
  };

  try {
    // The project's tier must not be what limits a benchmark.
    await services.db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 1000000000
       where project_id = (select project_id from api_keys where key_id = $1)`,
      [service.adminKey.split('_')[1]],
    );
    await post('/events/batch', body(o.batch)); // warm: compiled and connected before it is timed
    await sleep(2000);

    const burst = await sampled(async () => {
      const end = performance.now() + o.burstSeconds * 1000;
      const counts = { accepted: 0, refused: {} as Record<string, number> };
      await Promise.all(
        Array.from({ length: o.connections }, async () => {
          while (performance.now() < end) {
            const status = await post('/events/batch', body(o.batch)).catch(() => 0);
            if (status === 202) counts.accepted += o.batch;
            else counts.refused[status] = (counts.refused[status] ?? 0) + o.batch;
          }
        }),
      );
      return counts;
    });
    await sleep(5000); // the processors catch up a little: their lag is not the single events' wait

    const single = await sampled(async () => {
      const latencies: number[] = [];
      const refused: Record<string, number> = {};
      const sends: Promise<void>[] = [];
      const tickMs = 10;
      const perTick = Math.max(1, Math.round((o.singleRate * tickMs) / 1000));
      const start = performance.now();
      for (let tick = 0; tick * tickMs < o.singleSeconds * 1000; tick++) {
        const due = start + tick * tickMs;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        for (let i = 0; i < perTick; i++) {
          const text = body(1);
          const sent = performance.now();
          sends.push(
            post('/events', text)
              .catch(() => 0)
              .then((status) => {
                if (status === 202) latencies.push(performance.now() - sent);
                else refused[status] = (refused[status] ?? 0) + 1;
              }),
          );
        }
      }
      await Promise.all(sends);
      return { offered: sends.length, latency_ms: percentiles(latencies), refused };
    });

    const limits = o.rawLimitRecords > 0 ? await rawLimits(services, o.rawLimitRecords, o.namespace) : undefined;
    const burstPerS = burst.result.accepted / burst.seconds;
    const producer = limits?.kafka_producer_perf.records_per_s;
    return {
      command:
        `npm run bench -- ingest --burst-seconds ${o.burstSeconds} --connections ${o.connections} --batch ${o.batch} ` +
        `--rate ${o.singleRate} --seconds ${o.singleSeconds} --raw-limits ${o.rawLimitRecords}`,
      burst: {
        accepted: burst.result.accepted,
        refused: burst.result.refused,
        seconds: round(burst.seconds),
        events_per_s: Math.round(burstPerS),
        vs_kafka_producer: producer ? round(burstPerS / producer, 3) : undefined,
        us_cpu_per_event: cpuPerEvent(burst.processes, burst.seconds, burst.result.accepted),
        processes: burst.processes,
      },
      single_events: {
        offered_per_s: o.singleRate,
        seconds: round(single.seconds),
        offered: single.result.offered,
        accepted: single.result.latency_ms.n,
        refused: single.result.refused,
        latency_ms: single.result.latency_ms,
        processes: single.processes,
      },
      raw_limits: limits,
      targets: { api_us_cpu_per_event: 20, burst_events_per_s: 40_000, burst_vs_producer: 0.3, single_p99_ms: 20 },
    };
  } finally {
    await service.stop();
    await services.close();
  }
}
