/**
 * The parts of the pipeline measured alone — a diagnosis, never the headline (docs/performance.md:
 * the headline is `live`, the service as users run it). On the local stack and topics of its own:
 * ingest through POST /events/batch with the API in this process, the raw-sink's and the
 * analytics chain's throughput from offset 0 (each alone), the latency of the analytics GETs over
 * what was loaded, a replay of both at once; and (`export`) the raw-event export's memory.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { connectServices, prepare } from '../../lib/services.js';
import { topicName } from '../../lib/kafka/topics.js';
import { PROCESSORS, startProcessors } from '../../processors/main.js';
import { analyticsLag, eventsEnd, restartAnalyticsChain } from '../../processors/analytics-sink/progress.js';
import { createKey, ensureProject } from '../../store/api-keys.js';
import { stackDown, stackUp } from '../local-stack/stack.js';
import { defaultOptions } from '../simulate.js';
import { simulate } from '../simulate/generator.js';

export interface PartsOptions {
  events: number;
  sessions: number;
  concurrency: number;
  /** export mode: that many raw events loaded with SQL, then the CSV export streamed */
  exportRows?: number;
}

export async function partsBench(values: PartsOptions) {
  const wanted = values.events;
  const { concurrency } = values;

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
    const { sessions } = values;
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

  /** The API role in a process of its own (its memory measured alone); resolves once it listens. */
  async function spawnApi() {
    const server = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
      env: { ...process.env, PORT: '3951', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for await (const line of createInterface({ input: server.stdout })) if (line.includes('api listening')) break;
    return { server, baseUrl: 'http://127.0.0.1:3951/v1' };
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

  const report = values.exportRows ? await exportBench(values.exportRows) : await pipelineBench();
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
  return report;
}
