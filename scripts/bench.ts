/**
 * `npm run bench -- [--events 100000] [--sessions 4] [--concurrency 4]`: a benchmark, never a test. On the local
 * stack (started if needed) and topics of its own, it measures ingest through POST /events/batch,
 * the raw-sink's and the analytics processor's throughput from offset 0 (each alone), the latency
 * of the analytics GETs over what was loaded, and a replay of both from offset 0 at once
 * (`replay_all`, what `npm run replay` runs). Prints one JSON document; docs/performance.md records runs.
 *
 * `npm run bench -- --latency 5000 [--seconds 60]`: with the API and the raw-sink and analytics
 * processors running (each in a process of its own, as deployed), posts simulator traffic at that many events/s and, ten times a second, a goal event of
 * an active job from a new user; reports how long each took from its POST to its job_completions
 * message on the stream (p50, p99). The API's tables commit in the transaction that notifies, so
 * an event is visible in the API no later than on the stream.
 *
 * `npm run bench -- --raw-limits 1000000`: the machine's raw limits beside those figures: Kafka's
 * own ProducerPerformance and ConsumerPerformance (records of 300 bytes, acks=all, idempotent, as
 * the API produces) and Postgres COPY of that many raw-event rows from a CSV file.
 *
 * `npm run bench -- --export 1000000`: loads that many raw events straight into raw_events with
 * SQL (this measures the export, not ingest), downloads the CSV export through the API, and
 * reports rows/s, the process's RSS growth while streaming, and whether the CSV parses back to
 * the same number of rows.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import WebSocket from 'ws';
import { startApi } from '../api/server.js';
import { createKey, ensureProject } from '../lib/api-keys.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { connectServices, prepare } from '../lib/services.js';
import { topicName } from '../lib/topics.js';
import { PROCESSORS, startProcessors } from '../processors/main.js';
import { analyticsLag, eventsEnd, restartAnalyticsChain } from '../processors/analytics/progress.js';
import { findJava } from './local-stack/java.js';
import { kafkaClasspath } from './local-stack/maven.js';
import { stackDown, stackUp } from './local-stack/stack.js';
import { defaultOptions } from './simulate.js';
import { simulate } from './simulate/generator.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '4' },
    sessions: { type: 'string', default: '4' },
    export: { type: 'string' },
    latency: { type: 'string' },
    'raw-limits': { type: 'string' },
    seconds: { type: 'string', default: '60' },
    'serve-api': { type: 'boolean', default: false },
  },
});
/** `--serve-api` (used by --export): only the API, in a process of its own so its memory is measured alone. */
async function serveApi(): Promise<never> {
  const config = { ...loadConfig(), port: 0, logLevel: 'error' };
  const services = connectServices(config, createLogger('error'), 4);
  const api = await startApi(config, services);
  process.stdout.write(`${api.baseUrl}\n`);
  return new Promise<never>(() => {
    process.once('SIGTERM', () => void api.close().finally(() => process.exit(0)));
  });
}
if (values['serve-api']) await serveApi();

const wanted = Number(values.events);
const concurrency = Number(values.concurrency);

process.env.PI_TOPIC_NAMESPACE = `bench-${Date.now().toString(36)}`;
process.env.LOG_LEVEL = 'error';
const config = { ...loadConfig(), port: 0, logLevel: 'error' };
const started = await stackUp(config, () => undefined);
const services = connectServices(config, createLogger('error'), 20);
await prepare(services);
const api = await startApi(config, services);
const projectId = await ensureProject(services.db, `bench-${process.env.PI_TOPIC_NAMESPACE}`);
const { key } = await createKey(services.db, projectId, ['admin']);
await services.db.query(
  `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 100000000 where project_id = $1`,
  [projectId],
);

async function pipelineBench() {
  // Realistic sessions from the simulator (~11 events each), as many users as it takes, generated
  // and posted 25,000 users at a time (one seed each) so memory does not grow with the run.
  const sessions = Number(values.sessions);
  const users = Math.max(1, Math.ceil(wanted / (sessions * 11.25)));
  let events = 0;
  let ingestSeconds = 0;
  for (let first = 0, seed = 1; first < users; first += 25_000, seed++) {
    const simulation = simulate(defaultOptions(seed, Math.min(25_000, users - first), sessions));
    // Their properties (plan, company), for the segment reads below: written directly, as identify would.
    await services.db.query(
      `insert into users (project_id, user_id, properties)
       select $1, u.user_id, u.properties from unnest($2::text[], $3::jsonb[]) as u(user_id, properties)
       on conflict do nothing`,
      [projectId, simulation.users.map((u) => u.user_id), simulation.users.map((u) => JSON.stringify(u.properties))],
    );
    const batches: (typeof simulation.events)[] = [];
    for (let i = 0; i < simulation.events.length; i += 1000) batches.push(simulation.events.slice(i, i + 1000));
    events += simulation.events.length;

    const ingestStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < batches.length) {
          const batch = batches[next++]!;
          const res = await fetch(`${api.baseUrl}/events/batch`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ events: batch }),
          });
          if (res.status !== 202) throw new Error(`ingest: ${res.status} ${await res.text()}`);
        }
      }),
    );
    ingestSeconds += (performance.now() - ingestStart) / 1000;
  }

  /** Runs the processors until each has applied every event now in the topic (analytics: through its chain). */
  async function drain(names: ('raw-sink' | 'analytics')[]): Promise<number> {
    const admin = services.kafka.admin();
    await admin.connect();
    const target = await eventsEnd(admin);
    const total = [...target.values()].reduce((s, n) => s + n, 0);
    const start = performance.now();
    const running = await startProcessors(services, names);
    for (;;) {
      const { rows } = await services.db.query<{ n: number }>(
        `select coalesce(sum(next_offset), 0)::bigint as n from processor_offsets where processor = 'raw-sink' and topic = $1`,
        [topicName('events')],
      );
      const rawDone = !names.includes('raw-sink') || Number(rows[0]!.n) >= total;
      if (rawDone && (!names.includes('analytics') || (await analyticsLag(admin, services.db, target)) === 0)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (performance.now() - start) / 1000;
    await Promise.all(running.map((r) => r.stop()));
    await admin.disconnect();
    return seconds;
  }
  const rawSeconds = await drain(['raw-sink']);
  const analyticsSeconds = await drain(['analytics']);

  async function latency(path: string, n = 200) {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const res = await fetch(`${api.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
    return { p50_ms: at(0.5), p99_ms: at(0.99) };
  }
  const gets = {
    features: await latency('/analytics/features?date_range=last_7_days'),
    features_90_days: await latency('/analytics/features?date_range=last_90_days'),
    features_segment: await latency('/analytics/features?date_range=last_7_days&segment=plan:pro'),
    feature_detail: await latency('/analytics/features/export?date_range=last_7_days'),
    friction: await latency('/analytics/friction?date_range=last_7_days'),
    friction_trends: await latency('/analytics/friction/trends'),
    event_context: await latency('/analytics/context/events/feature_used?date_range=last_7_days'),
  };

  return {
    events,
    users,
    ingest: { seconds: ingestSeconds, events_per_s: Math.round(events / ingestSeconds), concurrency },
    raw_sink: { seconds: rawSeconds, events_per_s: Math.round(events / rawSeconds) },
    analytics: { seconds: analyticsSeconds, events_per_s: Math.round(events / analyticsSeconds) },
    analytics_get_latency: gets,
    replay_all: await replayAll(),
  };

  /** What `npm run replay` does: both sinks' rows and offsets gone, then both re-read the topic at once. */
  async function replayAll() {
    for (const table of ['raw_events', ...PROCESSORS.analytics.tables]) {
      await services.db.query(`delete from ${table} where project_id = $1`, [projectId]);
    }
    await services.db.query('delete from processor_offsets where topic = $1', [topicName('events')]);
    const admin = services.kafka.admin();
    await admin.connect();
    await restartAnalyticsChain(admin, services.db);
    await admin.disconnect();
    const seconds = await drain(['raw-sink', 'analytics']);
    return { seconds, events_per_s: Math.round(events / seconds) };
  }
}

/** The API in a process of its own (`--serve-api`); it prints its base URL once listening. */
async function spawnApi() {
  const server = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve-api'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [baseUrl] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
  return { server, baseUrl, streamUrl: `${baseUrl.replace(/^http/, 'ws')}/stream` };
}

/** Raw-event export: N rows loaded with SQL, the CSV streamed through the API and parsed back. */
async function exportBench(rows: number) {
  const loadStart = performance.now();
  await services.db.query(
    `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                             kafka_partition, kafka_offset)
     select $1, 'bench-' || i, 'user-' || (i % 20000), (array['page_view', 'click', 'feature_used'])[1 + i % 3],
            jsonb_build_object('page', '/p/' || (i % 50), 'element', '#e' || (i % 200), 'label', 'a, "quoted" value'),
            now() - interval '1 day' + i * interval '1 millisecond', now(), 0, i
     from generate_series(1, $2::int) i`,
    [projectId, rows],
  );
  const loadSeconds = (performance.now() - loadStart) / 1000;

  const { server, baseUrl } = await spawnApi();
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) * 1024;
  const download = (range: string) =>
    fetch(`${baseUrl}/analytics/export/events?format=csv&${range}`, { headers: { Authorization: `Bearer ${key}` } });
  await (await download('date_range=custom&start=2000-01-01&end=2000-01-01')).text(); // warm-up: code loaded
  const rssBefore = rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 50);
  const start = performance.now();
  const res = await download('date_range=last_7_days');
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
  let parsed = 0;
  let bytes = 0;
  const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const parser = parse({ columns: true });
  parser.on('data', () => parsed++);
  await pipeline(body, parser);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  server.kill('SIGTERM');
  await once(server, 'exit');
  const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
  return {
    rows,
    load_seconds: loadSeconds,
    export: { seconds, rows_per_s: Math.round(rows / seconds), mb: mb(bytes) },
    // RSS of the API process (sampled every 50 ms) from after a warm-up request to the peak.
    api_rss: { before_mb: mb(rssBefore), peak_mb: mb(rssPeak), growth_mb: mb(rssPeak - rssBefore), limit_mb: 64 },
    parsed_rows: parsed,
    parses_back: parsed === rows,
  };
}

/** Event → stream latency under steady traffic (see the header). */
async function latencyBench(rate: number, seconds: number) {
  const request = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const job = await request('POST', '/jobs', {
    name: 'Latency probe',
    goal: 'latency_probe',
    target_audience: { type: 'all' },
  });
  await request('PATCH', `/jobs/${String(job.id)}`, { status: 'active' });
  // As deployed: the API (with the stream) and the processors in processes of their own, this one
  // only the load and the probe client.
  const { server, baseUrl, streamUrl } = await spawnApi();
  const processors = spawn(
    process.execPath,
    [...process.execArgv, 'processors/main.ts', '--only', 'raw-sink,analytics'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );

  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const ws = new WebSocket(streamUrl);
  await once(ws, 'open');
  ws.send(JSON.stringify({ type: 'auth', api_key: key }));
  ws.send(JSON.stringify({ type: 'subscribe', channels: ['job_completions'] }));
  ws.on('message', (raw: Buffer) => {
    const message = JSON.parse(raw.toString()) as { channel?: string; data?: { user_id: string } };
    const sent = message.channel === 'job_completions' ? sentAt.get(message.data!.user_id) : undefined;
    if (sent !== undefined) latencies.push(performance.now() - sent);
  });

  const perTick = Math.max(1, Math.round(rate / 10));
  const { events } = simulate(defaultOptions(2, Math.ceil((rate * seconds) / 40), 4));
  const posts: Promise<void>[] = [];
  const start = performance.now();
  let used = 0;
  for (let tick = 0; tick < seconds * 10; tick++) {
    const user = `probe-${tick}`;
    const probe = { user_id: user, event: 'latency_probe', timestamp: new Date().toISOString(), properties: {} };
    const batch = [...events.slice(used, used + perTick - 1), probe];
    used += perTick - 1;
    sentAt.set(user, performance.now());
    posts.push(
      fetch(`${baseUrl}/events/batch`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ events: batch }),
      }).then(async (res) => {
        if (res.status !== 202) throw new Error(`ingest: ${res.status} ${await res.text()}`);
      }),
    );
    const wait = start + (tick + 1) * 100 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const sendSeconds = (performance.now() - start) / 1000;
  await Promise.all(posts);
  const deadline = performance.now() + 30_000;
  while (latencies.length < sentAt.size && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  ws.close();
  for (const child of [processors, server]) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return {
    events_per_s: Math.round((used + sentAt.size) / sendSeconds),
    seconds: sendSeconds,
    probes: sentAt.size,
    received: latencies.length,
    stream_latency_ms: { p50: at(0.5), p99: at(0.99), max: at(1) },
  };
}

/** Kafka's perf tools and Postgres COPY on this machine (see the header). */
async function rawLimits(records: number) {
  const java = await findJava(17);
  const classpath = await kafkaClasspath(() => undefined);
  const tool = async (main: string, args: string[]) =>
    (await promisify(execFile)(java, ['-Xmx512m', '-cp', classpath, main, ...args], { maxBuffer: 64 * 1024 * 1024 }))
      .stdout;
  const topic = `${process.env.PI_TOPIC_NAMESPACE}.perf`;
  const brokers = config.kafkaBrokers.join(',');
  const admin = services.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: config.topicPartitions, replicationFactor: 1 }] });
  await admin.disconnect();
  const produced = await tool('org.apache.kafka.tools.ProducerPerformance', [
    '--topic',
    topic,
    '--num-records',
    String(records),
    '--record-size',
    '300',
    '--throughput',
    '-1',
    '--producer-props',
    `bootstrap.servers=${brokers}`,
    'acks=all',
    'enable.idempotence=true',
  ]);
  // Last line: "N records sent, X records/sec (Y MB/sec), …".
  const producer = /([\d.]+) records\/sec/.exec(produced.trim().split('\n').at(-1)!)![1]!;
  const consumed = await tool('org.apache.kafka.tools.ConsumerPerformance', [
    '--bootstrap-server',
    brokers,
    '--topic',
    topic,
    '--messages',
    String(records),
    '--timeout',
    '60000',
  ]);
  // CSV: start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, …
  const consumer = consumed.trim().split('\n').at(-1)!.split(',')[5]!.trim();

  const file = `/tmp/${process.env.PI_TOPIC_NAMESPACE}-copy.csv`;
  const out = fs.createWriteStream(file);
  for (let i = 0; i < records; i++) {
    const line = `${projectId},copy-${i},user-${i % 20000},page_view,"{""page"": ""/p/${i % 50}""}",2026-11-20 12:00:00+00,2026-11-20 12:00:01+00,0,${i}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  await services.db.query('create table copy_bench (like raw_events including all)');
  const copyStart = performance.now();
  await services.db.query(
    `copy copy_bench (project_id, message_id, user_id, event, properties, occurred_at, received_at, kafka_partition,
                      kafka_offset) from '${file}' with (format csv)`,
  );
  const copySeconds = (performance.now() - copyStart) / 1000;
  await services.db.query('drop table copy_bench');
  fs.rmSync(file);
  return {
    records,
    kafka_producer_perf: { records_per_s: Number(producer), record_bytes: 300, acks: 'all' },
    kafka_consumer_perf: { records_per_s: Number(consumer) },
    postgres_copy_raw_events: { rows_per_s: Math.round(records / copySeconds), seconds: copySeconds },
  };
}

const report = values.export
  ? await exportBench(Number(values.export))
  : values.latency
    ? await latencyBench(Number(values.latency), Number(values.seconds))
    : values['raw-limits']
      ? await rawLimits(Number(values['raw-limits']))
      : await pipelineBench();
console.log(JSON.stringify(report, null, 2));

await api.close();
// Leave nothing of the bench in the database or in Kafka.
for (const table of ['raw_events', ...PROCESSORS.analytics.tables]) {
  await services.db.query(`delete from ${table} where project_id = $1`, [projectId]);
}
await services.db.query('delete from processor_offsets where topic = any($1)', [
  [topicName('events'), topicName('sessions')],
]);
for (const table of ['job_completions', 'job_changes', 'workflow_changes']) {
  await services.db.query(`delete from ${table} where project_id = $1`, [projectId]);
}
await services.db.query('delete from projects where project_id = $1', [projectId]);
const admin = services.kafka.admin();
await admin.connect();
await admin.deleteTopics({
  topics: (await admin.listTopics()).filter((t) => t.startsWith(process.env.PI_TOPIC_NAMESPACE!)),
});
await admin.disconnect();
await services.close();
await stackDown(config, () => undefined, started);
