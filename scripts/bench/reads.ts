import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, withDatabase } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { connectServices } from '../../lib/services.js';
import { readLag } from './lag.js';
import { ProcessSampler } from './processes.js';
import { startService } from './service.js';
import { percentiles, round } from './stats.js';
import { burst, simulations } from './traffic.js';

export interface ReadsOptions {
  events: number;
  users: number;
  requests: number;
  database: string;
  namespace: string;
  port: number;
  out: string;
}

const DAY = 86_400_000;

interface Reply {
  status: number;
  body: Record<string, unknown>;
}
const USERS_PER_SEED = 25_000;
/** Identifies in flight at once while loading (16 made 52 users/s, a third of the load's time). */
const IDENTIFY_CONCURRENCY = 64;

/**
 * DESIGN §8's read benchmark: every analytics GET's latency over a project of `events` events of
 * `users` users (identified, with properties: segments), loaded through `npm start` — the API and
 * the pipeline, as a product would send them — and kept between runs (the load takes long).
 */
export async function readsBench(o: ReadsOptions) {
  process.env.PI_TOPIC_NAMESPACE = o.namespace;
  const env = {
    DATABASE_URL: withDatabase(loadConfig().databaseUrl, o.database),
    PI_TOPIC_NAMESPACE: o.namespace,
    PORT: String(o.port),
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig({ ...process.env, ...env });
  const service = await startService(env);
  const services = connectServices(config, createLogger('error'), 2);
  const admin = services.kafka.admin();
  await admin.connect();
  const key = service.adminKey;
  // A request that finds no API (a role restarting after a crash, see the service log) is tried again.
  const call = async (method: string, url: string, body?: unknown, attempt = 1): Promise<Reply> => {
    try {
      const res = await fetch(`${service.baseUrl}${url}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch (err) {
      if (attempt >= 10) throw err;
      await sleep(1000 * attempt);
      return call(method, url, body, attempt + 1);
    }
  };
  // A call the load relies on: tried again while the service refuses it (503 at a moment of overload).
  const accepted = async (method: string, url: string, body: unknown): Promise<Reply> => {
    for (let attempt = 1; ; attempt++) {
      const reply = await call(method, url, body);
      if (reply.status < 300) return reply;
      if (attempt >= 10) throw new Error(`${method} ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
      await sleep(1000 * attempt);
    }
  };
  const caughtUp = async () => {
    for (;;) {
      const lag = await readLag(admin, services.db);
      if (lag.raw + lag.sessionize + lag.analytics === 0) return;
      await sleep(2000);
    }
  };
  /** The processors and the analytics sink below 10 % of a core for 10 s running, within 20 minutes. */
  const chainSettled = async () => {
    const sampler = new ProcessSampler();
    sampler.sample();
    const until = Date.now() + 20 * 60_000;
    for (let quiet = 0; quiet < 10;) {
      if (Date.now() > until) throw new Error('the processors were not quiet within 20 minutes');
      await sleep(1000);
      const { byName } = sampler.sample();
      quiet = (byName.processors?.cpu ?? 0) + (byName.analytics?.cpu ?? 0) < 10 ? quiet + 1 : 0;
    }
  };
  try {
    await services.db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 1000000000
       where project_id = (select project_id from api_keys where key_id = $1)`,
      [key.split('_')[1]],
    );
    // Seeds loaded in full, recorded in the bench's own table of its kept database: a load cut short
    // goes on with the next seed (the users table cannot tell, as an identify may have been refused).
    await services.db.query(
      'create table if not exists bench_reads_seeds (seed int primary key, users int not null, events bigint not null)',
    );
    const { rows: done } = await services.db.query<{ seeds: number; users: number; events: number }>(
      `select coalesce(max(seed), 0)::int as seeds, coalesce(sum(users), 0)::int as users,
              coalesce(sum(events), 0)::float8 as events from bench_reads_seeds`,
    );
    const stored = done[0]!.events;
    let load: Record<string, number> | undefined;
    if (stored < o.events && done[0]!.users < o.users) {
      await call('PUT', '/settings/goals', { goals: ['feature_used'] });
      const started = performance.now();
      const sessions = Math.max(1, Math.round(o.events / o.users / 11.25));
      let sent = stored;
      let identified = done[0]!.users;
      const seeds = simulations({
        users: USERS_PER_SEED,
        firstSeed: done[0]!.seeds + 1,
        sessions,
        start: Date.now() - 85 * DAY,
        spanMs: 84 * DAY,
      });
      let seed = done[0]!.seeds;
      for (const { users, events } of seeds) {
        if (identified >= o.users || sent >= o.events) break;
        seed++;
        for (let i = 0; i < users.length; i += IDENTIFY_CONCURRENCY) {
          await Promise.all(
            users.slice(i, i + IDENTIFY_CONCURRENCY).map((u) => accepted('POST', '/users/identify', u)),
          );
        }
        const stats = await burst(service.baseUrl, key, events.values(), {
          seconds: 86_400,
          connections: 4,
          batchSize: 1000,
        });
        if (stats.accepted < stats.offered)
          throw new Error(
            `seed ${seed}: ${stats.offered - stats.accepted} events not accepted: ${JSON.stringify(stats)}`,
          );
        await services.db.query('insert into bench_reads_seeds values ($1, $2, $3)', [
          seed,
          users.length,
          stats.accepted,
        ]);
        identified += users.length;
        sent += stats.accepted;
        console.error(`  loaded ${sent} events of ${identified} users`);
      }
      await caughtUp();
      load = { events: sent, users: identified, seconds: round((performance.now() - started) / 1000) };
    }
    // Kept from an earlier run, the processors first re-read what a restart re-reads (the lag does
    // not show it: it is below the offsets read before): the GETs were timed during it.
    const settling = performance.now();
    await caughtUp();
    await chainSettled();
    const settledSeconds = round((performance.now() - settling) / 1000);

    // The workers' answers (workflows of the declared goal, behavioural cohorts) before reading them,
    // for at most 20 minutes each: an answer that never comes is a finding, not a reason to hang.
    const firstOf = async (url: string, list: string) => {
      const until = Date.now() + 20 * 60_000;
      for (;;) {
        const reply = await call('GET', url);
        const items = reply.body[list] as { workflow_id?: string; id?: string }[] | undefined;
        if (reply.status === 200 && items && items.length > 0) return items[0]!;
        if (Date.now() > until)
          throw new Error(`GET ${url} has no ${list} after 20 minutes: ${JSON.stringify(reply.body).slice(0, 500)}`);
        await sleep(2000);
      }
    };
    const workflow = await firstOf('/analytics/workflows?goal=feature_used', 'workflows');
    const cohort = await firstOf('/analytics/cohorts', 'cohorts');
    const feature = (await firstOf('/analytics/features?date_range=last_90_days', 'features')) as { name?: string };
    const job = await call('POST', '/jobs', { name: 'Reads', goal: 'feature_used', target_audience: { type: 'all' } });

    const gets: Record<string, string> = {
      features_7_days: '/analytics/features?date_range=last_7_days',
      features_90_days: '/analytics/features?date_range=last_90_days',
      features_segment: '/analytics/features?date_range=last_30_days&segment=plan:pro',
      feature_detail: `/analytics/features/${feature.name}?date_range=last_30_days`,
      friction: '/analytics/friction?date_range=last_30_days',
      friction_page: '/analytics/friction?date_range=last_30_days&page=/reports',
      friction_trends: '/analytics/friction/trends',
      workflows: '/analytics/workflows?goal=feature_used',
      workflow_efficiency: `/analytics/workflows/${workflow.workflow_id}/efficiency`,
      cohorts: '/analytics/cohorts',
      cohort: `/analytics/cohorts/${cohort.id}`,
      cohort_users: `/analytics/cohorts/${cohort.id}/users`,
      event_context: '/analytics/context/events/feature_used?date_range=last_30_days',
      job_analytics: `/analytics/jobs/${String(job.body.id)}`,
    };
    const latency: Record<string, ReturnType<typeof percentiles> & { status: number }> = {};
    for (const [name, url] of Object.entries(gets)) {
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < o.requests + 10; i++) {
        const t = performance.now();
        const res = await fetch(`${service.baseUrl}${url}`, { headers: { Authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        status = res.status;
        if (i >= 10) times.push(performance.now() - t); // the first ten warm the caches
      }
      latency[name] = { status, ...percentiles(times) };
    }
    const { rows: sizes } = await services.db.query<{ table: string; rows: string; mb: number }>(
      `select relname as table, n_live_tup::text as rows, round(pg_total_relation_size(relid) / 1048576.0) as mb
       from pg_stat_user_tables order by pg_total_relation_size(relid) desc limit 12`,
    );
    const report = {
      command: `npm run bench -- reads ${process.argv.slice(3).join(' ')}`.trim(),
      at: new Date().toISOString(),
      events_stored: Math.max(stored, load?.events ?? 0),
      load,
      /** from the load's end (or the service's start) until the processors were quiet */
      settled_s: settledSeconds,
      get_latency_ms: latency,
      worst_p99_ms: Math.max(...Object.values(latency).map((l) => l.p99)),
      largest_tables: sizes,
    };
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, `${JSON.stringify(report, null, 1)}\n`);
    return report;
  } finally {
    await service.stop();
    await admin.disconnect();
    await services.close();
  }
}
