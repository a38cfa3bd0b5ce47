/**
 * `npm run bench -- [--events 100000] [--concurrency 4]`: a benchmark, never a test. On the local
 * stack (started if needed) and topics of its own, it measures ingest through POST /events/batch,
 * the raw-sink's and the analytics processor's throughput from offset 0, and the latency of the
 * analytics GETs over what was loaded. Prints one JSON document; docs/performance.md records runs.
 */
import { parseArgs } from 'node:util';
import { startApi } from '../api/server.js';
import { createKey, ensureProject } from '../lib/api-keys.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { connectServices, prepare } from '../lib/services.js';
import { topicName } from '../lib/topics.js';
import { PROCESSORS, startProcessors } from '../processors/main.js';
import { stackDown, stackUp } from './local-stack/stack.js';
import { defaultOptions } from './simulate.js';
import { simulate } from './simulate/generator.js';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '100000' }, concurrency: { type: 'string', default: '4' } },
});
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

// Realistic sessions from the simulator, as many users as it takes.
const users = Math.max(1, Math.ceil(wanted / 45));
const { events } = simulate(defaultOptions(1, users, 4));
const batches: (typeof events)[] = [];
for (let i = 0; i < events.length; i += 1000) batches.push(events.slice(i, i + 1000));

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
const ingestSeconds = (performance.now() - ingestStart) / 1000;

async function drain(name: 'raw-sink' | 'analytics'): Promise<number> {
  const admin = services.kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topicName('events'));
  await admin.disconnect();
  const total = ends.reduce((s, e) => s + Number(e.high), 0);
  const start = performance.now();
  const running = await startProcessors(services, [name]);
  for (;;) {
    const { rows } = await services.db.query<{ n: number }>(
      'select coalesce(sum(next_offset), 0)::bigint as n from processor_offsets where processor = $1 and topic = $2',
      [name, topicName('events')],
    );
    if (Number(rows[0]!.n) >= total) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(running.map((r) => r.stop()));
  return seconds;
}
const rawSeconds = await drain('raw-sink');
const analyticsSeconds = await drain('analytics');

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
  feature_detail: await latency('/analytics/features/export?date_range=last_7_days'),
  friction: await latency('/analytics/friction?date_range=last_7_days'),
  friction_trends: await latency('/analytics/friction/trends'),
  event_context: await latency('/analytics/context/events/feature_used?date_range=last_7_days'),
};

console.log(
  JSON.stringify(
    {
      events: events.length,
      users,
      ingest: { seconds: ingestSeconds, events_per_s: Math.round(events.length / ingestSeconds), concurrency },
      raw_sink: { seconds: rawSeconds, events_per_s: Math.round(events.length / rawSeconds) },
      analytics: { seconds: analyticsSeconds, events_per_s: Math.round(events.length / analyticsSeconds) },
      analytics_get_latency: gets,
    },
    null,
    2,
  ),
);

await api.close();
// Leave nothing of the bench in the database or in Kafka.
for (const table of ['raw_events', ...PROCESSORS.analytics.tables]) {
  await services.db.query(`delete from ${table} where project_id = $1`, [projectId]);
}
await services.db.query('delete from processor_offsets where topic = $1', [topicName('events')]);
await services.db.query('delete from projects where project_id = $1', [projectId]);
const admin = services.kafka.admin();
await admin.connect();
await admin.deleteTopics({
  topics: (await admin.listTopics()).filter((t) => t.startsWith(process.env.PI_TOPIC_NAMESPACE!)),
});
await admin.disconnect();
await services.close();
await stackDown(config, () => undefined, started);
