import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { connectServices } from '../../lib/services.js';
import { topicName } from '../../lib/kafka/topics.js';
import { topicEnds } from '../../processors/analytics-sink/progress.js';
import { type Lag, readLag } from './lag.js';
import { plotPng } from './plot.js';
import { BackendNames, MachineProfiler, perfAvailable } from './machine-profile.js';
import { type ProcessSample, ProcessSampler, cpuPerEvent, summarizeProcesses } from './processes.js';
import { OPERATOR_TOKEN, type ProbeResult, apiDetails, apiProbe, stallProbe, streamProbes } from './probes.js';
import { rawLimits } from './raw-limits.js';
import { replayAll, startService } from './service.js';
import { resetStatements, topStatements } from './statements.js';
import { percentiles, round } from './stats.js';
import { burst, interleaved, paced, simulatedEvents } from './traffic.js';

export interface LiveOptions {
  history: number;
  rate: number;
  seconds: number;
  burstSeconds: number;
  connections: number;
  /** users whose events the live load interleaves (0: each user's events together) */
  concurrentUsers: number;
  rawLimitRecords: number;
  replay: boolean;
  database: string;
  namespace: string;
  port: number;
  fresh: boolean;
  out: string;
  plot: string;
  /** processes of each role as `npm start --<role> n` takes them (its defaults where unset) */
  copies: Partial<Record<'api' | 'processors' | 'analytics', string>>;
  /** a whole-machine CPU profile of each phase (machine-profile.ts) */
  perf: boolean;
}

const DAY = 86_400_000;

interface Tick {
  t: number;
  accepted: number;
  lag: Lag;
  processes: ProcessSample['byName'];
}

/**
 * The benchmark of the shipped shape (docs/performance.md): `npm start` with every role and
 * worker, over a stored history, under a burst and then a paced load with probe events; beside
 * it, in the same run, the machine's raw limits and a full replay.
 */
export async function liveBench(o: LiveOptions) {
  const base = loadConfig();
  const databaseUrl = withDatabase(base.databaseUrl, o.database);
  if (!databaseName(databaseUrl).includes('bench')) throw new Error('the bench database name must say bench');
  process.env.PI_TOPIC_NAMESPACE = o.namespace;
  if (o.perf && !perfAvailable()) throw new Error('--perf: `perf record -a` does not run here (linux-perf installed?)');
  const env = {
    DATABASE_URL: databaseUrl,
    PI_OPERATOR_TOKEN: OPERATOR_TOKEN,
    PI_TOPIC_NAMESPACE: process.env.PI_TOPIC_NAMESPACE,
    PORT: String(o.port),
    LOG_LEVEL: 'warn',
    // JIT-compiled JavaScript named in the profile (node writes /tmp/perf-<pid>.map).
    ...(o.perf ? { PI_NODE_ARGS: `${process.env.PI_NODE_ARGS ?? ''} --perf-basic-prof`.trim() } : {}),
  };
  const config = loadConfig({ ...process.env, ...env });
  if (o.fresh) await dropEverything(base.databaseUrl, o.database, config);

  const startArgs = Object.entries(o.copies).flatMap(([role, n]) => (n ? [`--${role}`, n] : []));
  const service = await startService(env, startArgs);
  const services = connectServices(config, createLogger('error'), 4);
  const admin = services.kafka.admin();
  await admin.connect();
  const key = service.adminKey;
  const run = Date.now().toString(36);
  const t0 = performance.now();
  const ticks: Tick[] = [];
  const phases: { name: string; from: number; to: number }[] = [];
  let accepted = 0;
  const sampler = new ProcessSampler();
  const profiler = o.perf ? new MachineProfiler(path.join(path.dirname(o.out), 'perf')) : undefined;
  const backends = new BackendNames();
  const sampling = setInterval(() => {
    if (profiler && ticks.length % 5 === 0) backends.poll(services.db).catch(() => undefined);
    void readLag(admin, services.db).then(
      (lag) => ticks.push({ t: (performance.now() - t0) / 1000, accepted, lag, processes: sampler.sample().byName }),
      () => undefined,
    );
  }, 1000);
  const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const from = (performance.now() - t0) / 1000;
    profiler?.start(name);
    try {
      return await work();
    } finally {
      await profiler?.stop();
      phases.push({ name, from, to: (performance.now() - t0) / 1000 });
    }
  };
  const drained = async (timeoutMs: number) => {
    const start = performance.now();
    for (;;) {
      const lag = await readLag(admin, services.db);
      if (lag.raw === 0 && lag.sessionize === 0 && lag.analytics === 0) return (performance.now() - start) / 1000;
      if (performance.now() - start > timeoutMs) return Number.NaN;
      await sleep(250);
    }
  };

  // The paced phase measures a steady state: it starts once the workers' passes over the burst
  // (workflows, jobs, cohorts) are over too, i.e. their processes stayed below 5 % of a core for three
  // of their poll intervals, counted from the drain: they find work at their next poll, so a few
  // seconds of quiet right after the drain do not say a pass is over.
  const quietSeconds = (3 * config.pollIntervalMs) / 1000;
  const workersIdle = async (timeoutMs: number) => {
    const start = performance.now();
    for (;;) {
      const now = (performance.now() - t0) / 1000;
      const recent = ticks.filter((t) => t.t >= now - quietSeconds);
      const workersCpu = (t: Tick) =>
        Object.entries(t.processes)
          .filter(([name]) => name.startsWith('workers'))
          .reduce((sum, [, p]) => sum + p.cpu, 0);
      const quietFor = (performance.now() - start) / 1000;
      if (quietFor >= quietSeconds && recent.every((t) => workersCpu(t) < 5)) return quietFor;
      if (performance.now() - start > timeoutMs) return Number.NaN;
      await sleep(1000);
    }
  };

  try {
    // The project's tier must not be what limits a benchmark.
    await services.db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 1000000000
       where project_id = (select project_id from api_keys where key_id = $1)`,
      [key.split('_')[1]],
    );

    const stored = sum(await topicEnds(admin, topicName('events')));
    const history = await phase('history', async () => {
      const missing = Math.max(0, o.history - stored);
      if (missing === 0) return { stored, sent: 0, seconds: 0 };
      const source = simulatedEvents(`h${run}`, {
        users: 25_000,
        sessions: 4,
        start: Date.now() - 85 * DAY,
        spanMs: 84 * DAY,
        timestamps: true,
      });
      const start = performance.now();
      let sent = 0;
      while (sent < missing) {
        const stats = await burst(service.baseUrl, key, limit(source, missing - sent), {
          seconds: 3600,
          connections: 4,
          batchSize: 1000,
        });
        sent += stats.accepted;
        if (stats.offered === 0) break;
      }
      const drainSeconds = await drained(3_600_000);
      return { stored, sent, seconds: round((performance.now() - start) / 1000), drain_seconds: round(drainSeconds) };
    });

    // The simulator makes a seed's users all at once: 20,000 at a time stalled this process 1–2 s
    // every 125 s of the paced phase (its requests in flight then filled up, ticks went unsent).
    const users = simulatedEvents(`l${run}`, {
      users: 2_000,
      sessions: 3,
      start: Date.now(),
      spanMs: DAY,
      timestamps: false,
    });
    // A busy product's users send at the same time, so a session arrives over many batches and
    // the sessionizer sends its growing chain again with each. Sending each user's events together,
    // which no product does, hid that cost.
    const live = o.concurrentUsers > 0 ? interleaved(users, o.concurrentUsers) : users;
    let streamSetUp: Awaited<ReturnType<typeof streamProbes>> | undefined;
    const burstResult = await phase('burst', async () => {
      const start = performance.now();
      const stats = await burst(
        service.baseUrl,
        key,
        live,
        {
          seconds: o.burstSeconds,
          connections: o.connections,
          batchSize: 1000,
        },
        (n) => (accepted += n),
      );
      const drainSeconds = await drained(900_000);
      const untilApplied = (performance.now() - start) / 1000;
      // The stream probes' Job, made active now, sends the jobs worker over every stored user: a
      // pass of ~45 s that, made at the start of the paced phase, put the phase's p99 at 3.8 s. It
      // is a pass over the history like those over the burst, so it runs here.
      streamSetUp = await streamProbes(service.baseUrl, service.streamUrl, key, run);
      const workersSettleSeconds = await workersIdle(900_000);
      return {
        ...stats,
        seconds: round(stats.seconds),
        accepted_per_s: Math.round(stats.accepted / stats.seconds),
        applied_after_s: round(untilApplied),
        drain_after_burst_s: round(drainSeconds),
        // The workers' passes over what the burst stored, after the processors drained it.
        workers_settled_after_drain_s: round(workersSettleSeconds),
        // Every event of the burst through raw-sink, sessionize and the analytics sink, end to end.
        chain_events_per_s: Math.round(stats.accepted / untilApplied),
      };
    });

    const pacedResult = await phase('paced', async () => {
      const apiResults: Promise<ProbeResult>[] = [];
      const stream = streamSetUp;
      if (!stream) throw new Error('the stream probes were not set up');
      await apiDetails(service.baseUrl); // the API processes' delay and waits count from here
      const statements = await resetStatements(services.db);
      const stall = stallProbe(service.baseUrl);
      let n = 0;
      const probing = setInterval(() => {
        n++;
        apiResults.push(apiProbe(service.baseUrl, key, run, n, t0));
        void stream.send(n, t0);
      }, 1000);
      const stats = await paced(
        service.baseUrl,
        key,
        live,
        {
          rate: o.rate,
          seconds: o.seconds,
          tickMs: 20,
          maxInFlight: 64,
        },
        (k) => (accepted += k),
      );
      clearInterval(probing);
      // Timed from the load's end while the probes are awaited (up to 3 min, left out until d1692fc).
      const draining = drained(900_000);
      await stall.stop();
      const api = await Promise.all(apiResults);
      await stream.close(60_000);
      const drainSeconds = await draining;
      const latencies = (results: ProbeResult[]) => ({
        ...percentiles(results.map((r) => r.latency ?? Number.POSITIVE_INFINITY)),
        lost: results.filter((r) => r.latency === undefined).length,
      });
      const during = ticks.filter((t) => t.t >= (phases.at(-1)?.to ?? 0));
      return {
        offered_per_s: o.rate,
        ...stats,
        seconds: round(stats.seconds),
        accepted_per_s: Math.round(stats.accepted / stats.seconds),
        event_to_api_ms: latencies(api),
        event_to_stream_ms: latencies(stream.results),
        api_probe_series: api,
        stream_probe_series: stream.results,
        health_request_ms: percentiles(stall.times),
        lag_max: {
          raw: Math.max(0, ...during.map((t) => t.lag.raw)),
          sessionize: Math.max(0, ...during.map((t) => t.lag.sessionize)),
          analytics_chains: Math.max(0, ...during.map((t) => t.lag.analytics)),
        },
        drain_after_load_s: round(drainSeconds),
        ...(await apiDetails(service.baseUrl).then((d) => ({ api_event_loop: d.event_loop, api_waits: d.waits }))),
        postgres_top_statements: statements ? await topStatements(services.db) : 'pg_stat_statements not loaded',
      };
    });

    const processes = Object.fromEntries(
      phases.map((p) => [
        p.name,
        summarizeProcesses(
          ticks.filter((t) => t.t >= p.from && t.t <= p.to).map((t) => ({ at: t.t, byName: t.processes })),
        ),
      ]),
    );
    // Each phase ends drained, so its CPU is what its events cost (the paced one: its probes too).
    const eventsOf: Record<string, number> = {
      history: history.sent,
      burst: burstResult.accepted,
      paced: pacedResult.accepted,
    };
    const cpu_us_per_event = Object.fromEntries(
      phases.map((p) => [p.name, cpuPerEvent(processes[p.name]!, p.to - p.from, eventsOf[p.name] ?? 0)]),
    );
    clearInterval(sampling);
    await service.stop();

    // The replay's processes are named for the profile, as the service's were.
    const naming = profiler ? setInterval(() => sampler.sample(), 1000) : undefined;
    const replay = o.replay ? await phase('replay', () => replayAll(env)) : undefined;
    clearInterval(naming);
    const profile = await profiler?.profiles((pid) => backends.get(pid) ?? sampler.nameOf(pid));
    const limits = o.rawLimitRecords > 0 ? await rawLimits(services, o.rawLimitRecords, o.namespace) : undefined;
    const producerLimit = limits?.kafka_producer_perf.records_per_s;
    const report = {
      command: `npm run bench -- live ${process.argv.slice(3).join(' ')}`.trim(),
      at: new Date().toISOString(),
      shape: `npm start (${service.log.find((l) => l.includes('is running'))?.trim() ?? ''})`,
      history,
      live_traffic: { concurrent_users: o.concurrentUsers },
      burst: burstResult,
      paced: pacedResult,
      replay,
      raw_limits: limits,
      ratios: producerLimit
        ? {
            burst_ingest_vs_kafka_producer: round(burstResult.accepted_per_s / producerLimit, 3),
            chain_vs_kafka_consumer: round(
              burstResult.chain_events_per_s / limits.kafka_consumer_perf.records_per_s,
              3,
            ),
            replay_vs_kafka_consumer: replay
              ? round(replay.events_per_s / limits.kafka_consumer_perf.records_per_s, 3)
              : undefined,
          }
        : undefined,
      processes,
      cpu_us_per_event,
      ...(profile ? { profile } : {}),
    };
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, `${JSON.stringify({ ...report, ticks }, null, 1)}\n`);
    await plotPng(o.plot, `npm start under load — ${report.at}`, [
      {
        title: 'Probe latency: event → API (GET /analytics/features/{probe}) and event → stream (job_completions)',
        left: 'ms',
        series: [
          { label: 'event → API', points: pacedResult.api_probe_series.map((r) => [r.at / 1000, r.latency ?? NaN]) },
          {
            label: 'event → stream',
            points: pacedResult.stream_probe_series.map((r) => [r.at / 1000, r.latency ?? NaN]),
          },
        ],
      },
      {
        title: `Consumer lag and events accepted (phases: ${phases.map((p) => `${p.name} ${round(p.from, 0)}–${round(p.to, 0)} s`).join(', ')})`,
        left: 'lag (messages)',
        right: 'accepted events/s',
        series: [
          { label: 'raw-sink lag (events)', points: ticks.map((t) => [t.t, t.lag.raw]) },
          { label: 'sessionize lag (events)', points: ticks.map((t) => [t.t, t.lag.sessionize]) },
          { label: 'analytics-sink lag (chains)', points: ticks.map((t) => [t.t, t.lag.analytics]) },
          {
            label: 'accepted events/s',
            right: true,
            points: ticks.slice(1).map((t, i) => [t.t, (t.accepted - ticks[i]!.accepted) / (t.t - ticks[i]!.t)]),
          },
        ],
      },
      {
        title: 'CPU per process (% of one core)',
        left: '% CPU',
        series: ['api', 'processors', 'analytics', 'workers', 'kafka', 'registry', 'postgres', 'bench'].map((name) => ({
          label: name,
          points: ticks.map((t): [number, number] => [t.t, t.processes[name]?.cpu ?? 0]),
        })),
      },
    ]);
    return report;
  } finally {
    clearInterval(sampling);
    await service.stop();
    await admin.disconnect();
    await services.close();
  }
}

const sum = (offsets: Map<number, number>) => [...offsets.values()].reduce((s, n) => s + n, 0);

function* limit<T>(source: Iterator<T>, n: number): Generator<T> {
  for (let i = 0; i < n; i++) {
    const next = source.next();
    if (next.done) return;
    yield next.value;
  }
}

/** --fresh: the bench's database and topics go, so the history is loaded again. */
/** Drops the bench's database and its namespace's topics: a run that starts with no backlog. */
export async function dropEverything(serverUrl: string, database: string, config: ReturnType<typeof loadConfig>) {
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${pg.escapeIdentifier(database)} with (force)`);
  await admin.end();
  const services = connectServices(config, createLogger('error'), 1);
  const kafka = services.kafka.admin();
  await kafka.connect();
  const ours = (await kafka.listTopics()).filter((t) => t.startsWith(`${process.env.PI_TOPIC_NAMESPACE!}.`));
  if (ours.length > 0) await kafka.deleteTopics({ topics: ours });
  await kafka.disconnect();
  await services.close();
}
