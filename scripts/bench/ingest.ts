/**
 * Ingest as producers meet it (issue targets in docs/performance.md): `npm start` with every role,
 * then single events (`POST /events`) offered at a fixed rate (latency p50/p99), then a burst of
 * `POST /events/batch` bodies on parallel connections (events/s, each process's CPU per event),
 * then, the service stopped, Kafka's own producer on the same machine (the raw limit the burst is
 * compared with). Single events come first: after a burst the processors' catching up would be
 * what they measure; the database and topics are made afresh for the same reason. Bodies are made
 * while sending from events serialised once, so the sender's own CPU stays small; it is reported
 * beside the rest (`bench`).
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { connectServices } from '../../lib/services.js';
import { ProcessSampler, type ProcessSample, cpuPerEvent, summarizeProcesses } from './processes.js';
import { rawLimits } from './raw-limits.js';
import { dropEverything } from './live.js';
import { OPERATOR_TOKEN, apiDetails } from './probes.js';
import { startService } from './service.js';
import { resetStatements, topStatements } from './statements.js';
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

/** Connections the bench keeps open to the API. */
const SOCKETS = 64;

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
    PI_OPERATOR_TOKEN: OPERATOR_TOKEN,
  };
  const config = loadConfig({ ...process.env, ...env });
  // A fresh database and topics: a backlog left by an earlier run would be what the processors do.
  await dropEverything(base.databaseUrl, o.database, config);
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
  const api = new URL(service.baseUrl);
  /**
   * POST over kept-alive connections (at most `SOCKETS`, further requests queue for one): fetch
   * opened a connection per request under a thousand requests a second, and took more CPU than the
   * API it measured.
   */
  const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });
  const post = (path: string, text: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: api.hostname,
          port: api.port,
          path: `${api.pathname}${path}`,
          method: 'POST',
          headers: { Authorization: `Bearer ${service.adminKey}`, 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(text);
    });
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

    await resetStatements(services.db);
    const single = await sampled(async () => {
      const latencies: number[] = [];
      /** per second of sending, the latencies of the events sent in it: a stall shows where it was */
      const bySecond: number[][] = [];
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
                if (status !== 202) {
                  refused[status] = (refused[status] ?? 0) + 1;
                  return;
                }
                const ms = performance.now() - sent;
                latencies.push(ms);
                (bySecond[Math.floor((sent - start) / 1000)] ??= []).push(ms);
              }),
          );
        }
      }
      await Promise.all(sends);
      // The API's own account: its event-loop delay and its waits on Postgres and Kafka meanwhile.
      const details = await apiDetails(service.baseUrl);
      const statements = await topStatements(services.db, 8);
      return {
        offered: sends.length,
        latency_ms: percentiles(latencies),
        p99_ms_by_second: Array.from(bySecond, (second) => percentiles(second ?? []).p99),
        refused,
        api: details,
        statements,
      };
    });

    await sleep(5000); // the processors catch up with the single events before the burst

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
    // Measured with the service stopped: processors catching up with the burst would halve them.
    await service.stop();
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
        p99_ms_by_second: single.result.p99_ms_by_second,
        api: single.result.api,
        postgres_statements: single.result.statements,
        processes: single.processes,
      },
      raw_limits: limits,
      targets: { api_us_cpu_per_event: 20, burst_events_per_s: 40_000, burst_vs_producer: 0.3, single_p99_ms: 20 },
    };
  } finally {
    agent.destroy();
    await service.stop();
    await services.close();
  }
}
