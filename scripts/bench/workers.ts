/**
 * `npm run bench -- workers [--users 2000] [--sessions 10] [--trickle 100] [--rounds 3]`: a benchmark, never a
 * test. What one pass of each Postgres-driven worker (workflows, jobs, cohort-membership, behavioural-cohorts)
 * costs in a project with a stored history when a trickle of new events arrives, as on a live project.
 *
 * Runs against DATABASE_URL (use a database of your own) and topics under PI_TOPIC_NAMESPACE (default
 * `bench-workers`); both are kept between runs, so a second run (say after a code change and its migration)
 * measures the same history. The first run loads the simulator's traffic (`--users` × `--sessions`, about
 * 11 events a session) through the API and the processors, and sets up what the workers work for: declared
 * goals, an active Job, custom cohorts. Each round then posts `--trickle` events (a few users, some new) through
 * the API, waits until the analytics chain has applied them, and times one pass of each worker. Prints one
 * JSON document: the history's size, the first (full) pass of each worker and every round's passes in ms.
 *
 * `--baseline <checkout>`: also times the same passes of another checkout's workers (say the commit
 * before a change, extracted with `git archive`) right after this checkout's, on the same data and the
 * same machine load. Its workflows pass is told the project changed (workflow_changes), as its
 * triggers did on every event. Each round forces a behavioural recomputation for both (the worker
 * does one at most every 10 minutes); the other passes are what a poll does after the trickle.
 */
import path from 'node:path';
import { startApi } from '../../api/server.js';
import { createKey, ensureProject } from '../../store/api-keys.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { connectServices, prepare } from '../../lib/services.js';
import { startProcessors } from '../../processors/main.js';
import { analyticsLag, eventsEnd } from '../../processors/analytics-sink/progress.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { refreshJobs } from '../../workers/jobs/worker.js';
import { refreshCohortMembership } from '../../workers/cohort-membership/worker.js';
import { refreshBehaviouralCohorts } from '../../workers/behavioural-cohorts/worker.js';
import { defaultOptions } from '../simulate.js';
import { simulate } from '../simulate/generator.js';

export interface WorkersOptions {
  users: number;
  sessions: number;
  trickle: number;
  rounds: number;
  project: string;
  /** Another checkout whose workers are timed on the same data. */
  baseline?: string;
}

export async function workersBench(values: WorkersOptions) {
  process.env.PI_TOPIC_NAMESPACE ??= 'bench-workers';
  const config = { ...loadConfig(), port: 0, logLevel: 'fatal' };
  const services = connectServices(config, createLogger('fatal'), 8);
  await prepare(services);
  const { db } = services;
  const projectId = await ensureProject(db, values.project);
  // Loading goes through the API: a tier without a meaningful hourly limit.
  await db.query(
    `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 1000000000 where project_id = $1`,
    [projectId],
  );
  const key = (await createKey(db, projectId, ['events:write', 'admin'])).key;
  const api = await startApi(config, services);
  const sinks = await startProcessors(services, ['raw-sink', 'analytics']);

  const post = async (path: string, body: unknown, method = 'POST') => {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };

  async function applied(): Promise<void> {
    const admin = services.kafka.admin();
    await admin.connect();
    try {
      const target = await eventsEnd(admin);
      while ((await analyticsLag(admin, db, target)) > 0) await new Promise((r) => setTimeout(r, 250));
    } finally {
      await admin.disconnect();
    }
  }

  const count = async (sql: string) => Number((await db.query<{ n: string }>(sql, [projectId])).rows[0]!.n);
  const timed = async (work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    return Math.round(performance.now() - t);
  };
  type Workers = {
    refreshWorkflows: typeof refreshWorkflows;
    refreshJobs: typeof refreshJobs;
    refreshCohortMembership: typeof refreshCohortMembership;
    refreshBehaviouralCohorts: typeof refreshBehaviouralCohorts;
  };
  const ours: Workers = { refreshWorkflows, refreshJobs, refreshCohortMembership, refreshBehaviouralCohorts };
  const load = async <T>(file: string) => (await import(path.resolve(values.baseline!, file))) as T;
  const baseline: Workers | undefined = values.baseline
    ? {
        ...(await load<Pick<Workers, 'refreshWorkflows'>>('workers/workflows/refresh.ts')),
        ...(await load<Pick<Workers, 'refreshJobs'>>('workers/jobs/worker.ts')),
        ...(await load<Pick<Workers, 'refreshCohortMembership'>>('workers/cohort-membership/worker.ts')),
        ...(await load<Pick<Workers, 'refreshBehaviouralCohorts'>>('workers/behavioural-cohorts/worker.ts')),
      }
    : undefined;
  const forceRecompute = () =>
    db.query(`update behavioural_cohort_runs set fingerprint = '' where project_id = $1`, [projectId]);
  const passes = async (w: Workers, isBaseline: boolean) => ({
    workflows: await timed(async () => {
      if (isBaseline) await db.query('insert into workflow_changes (project_id) values ($1)', [projectId]);
      await w.refreshWorkflows(services, projectId);
    }),
    jobs: await timed(() => w.refreshJobs(services, projectId)),
    cohort_membership: await timed(() => w.refreshCohortMembership(services)),
    behavioural_cohorts: await timed(async () => {
      await forceRecompute();
      await w.refreshBehaviouralCohorts(services, projectId, { minAgeMs: 0 });
    }),
  });
  const bothPasses = async () => ({
    this: await passes(ours, false),
    ...(baseline ? { baseline: await passes(baseline, true) } : {}),
  });

  try {
    if ((await count('select count(*) as n from session_events where project_id = $1')) === 0) {
      const options = defaultOptions(42, values.users, values.sessions);
      options.scenarios = { perGroup: 24 };
      const simulation = simulate(options);
      await post('/settings/goals', { goals: ['project_created', 'feature_used'] }, 'PUT');
      await post('/cohorts', { name: 'regulars', criteria: { sessions: { gte: 5 } } });
      await post('/cohorts', { name: 'recent', criteria: { last_seen_days: { lte: 3 } } });
      for (const user of simulation.users) await post('/users/identify', user);
      const job = await fetch(`${api.baseUrl}/jobs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Create a project', goal: 'project_created' }),
      });
      const { id } = (await job.json()) as { id: string };
      await post(`/jobs/${id}`, { status: 'active' }, 'PATCH');
      for (let i = 0; i < simulation.events.length; i += 1000) {
        await post('/events/batch', { events: simulation.events.slice(i, i + 1000) });
      }
      await applied();
    }
    const history = {
      events: await count('select count(*) as n from session_events where project_id = $1'),
      sessions: await count('select count(*) as n from sessions where project_id = $1'),
      users: await count('select count(*) as n from user_metrics where project_id = $1'),
    };
    const first = await bothPasses();
    const rounds = [];
    for (let round = 0; round < values.rounds; round++) {
      const now = Date.now();
      const trickle = Array.from({ length: values.trickle }, (_, i) => {
        // Mostly users of the history, one in ten new; each a page view, a feature use or the goal.
        const user = i % 10 === 0 ? `trickle-${now}-${i}` : `sim-42-u${(i * 37 + round) % values.users}`;
        const kind = i % 3;
        return {
          user_id: user,
          event: kind === 0 ? 'page_view' : kind === 1 ? 'feature_used' : 'project_created',
          properties: kind === 0 ? { page: '/projects' } : kind === 1 ? { feature: 'filters' } : {},
          timestamp: new Date(now - (values.trickle - i) * 1000).toISOString(),
        };
      });
      await post('/events/batch', { events: trickle });
      await applied();
      rounds.push(await bothPasses());
    }
    return { project: values.project, history, first_pass_ms: first, trickle_pass_ms: rounds };
  } finally {
    await Promise.all(sinks.map((s) => s.stop()));
    await api.close();
    await services.close();
  }
}
