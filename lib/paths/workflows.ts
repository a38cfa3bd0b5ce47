import { type Pool, type PoolClient, inTransaction } from '../db.js';
import { type FrictionTotals, noFriction } from '../friction-index.js';
import type { Services } from '../services.js';
import { type Attempt, ELLIPSIS, OTHER, type Workflow, attempts, mineWorkflows } from './core.js';
import { type StepEvent, stepsOf } from './steps.js';

/** Signal kinds as friction_points[].common_issues names them. */
export const ISSUE_NAMES: Record<string, string> = {
  confusion_loop: 'confusion',
  backtrack: 'backtracking',
  rage_click: 'rage clicks',
  dead_click: 'dead clicks',
  idle: 'idle',
};

/**
 * The goals a project's workflows are kept for: its active Jobs' goals, the goals declared in
 * projects.settings.goals (PUT /settings/goals), and every goal asked for by GET /analytics/workflows.
 */
async function projectGoals(client: PoolClient, projectId: string): Promise<Set<string>> {
  const { rows } = await client.query<{ goal: string }>(
    `select goal from jobs where project_id = $1 and status = 'active' and goal is not null
     union select jsonb_array_elements_text(coalesce(settings->'goals', '[]')) from projects where project_id = $1
     union select goal from workflow_goals where project_id = $1 and requested`,
    [projectId],
  );
  return new Set(rows.map((r) => r.goal));
}

interface SessionRows {
  user: string;
  events: StepEvent[];
}

/** Every session of the project with its events (the whole project is read: see docs/metrics.md). */
async function projectSessions(client: PoolClient, projectId: string): Promise<SessionRows[]> {
  const { rows } = await client.query<{
    session_id: string;
    user_id: string;
    event: string;
    at: number;
    kafka_offset: number;
    page: unknown;
    feature: unknown;
  }>(
    `select s.session_id, s.user_id, e.event, (extract(epoch from e.occurred_at) * 1000)::bigint as at, e.kafka_offset,
            e.properties->'page' as page, e.properties->'feature' as feature
     from sessions s
     join session_events e on e.project_id = s.project_id and e.user_id = s.user_id
                          and e.occurred_at between s.started_at and s.ended_at
     where s.project_id = $1
     order by s.user_id, s.started_at`,
    [projectId],
  );
  const sessions = new Map<string, SessionRows>();
  for (const r of rows) {
    const session = sessions.get(r.session_id) ?? { user: r.user_id, events: [] };
    session.events.push({
      event: r.event,
      at: r.at,
      offset: r.kafka_offset,
      properties: { page: r.page, feature: r.feature },
    });
    sessions.set(r.session_id, session);
  }
  return [...sessions.values()];
}

/** Friction facts of the steps that are pages (over all days) and the kinds of signal seen there. */
async function stepFriction(
  client: PoolClient,
  projectId: string,
  steps: string[],
): Promise<Map<string, FrictionTotals & { common_issues: string[] }>> {
  const { rows: totals } = await client.query<FrictionTotals & { page: string }>(
    `select page, sum(views)::int as views, sum(clicks)::int as clicks, sum(dead_clicks)::int as dead_clicks,
            sum(rage_clicks)::int as rage_clicks, sum(loop_views)::int as loop_views, sum(backtracks)::int as backtracks,
            sum(active_ms)::float8 as active_ms, sum(idle_ms)::float8 as idle_ms
     from friction_page_daily where project_id = $1 and page = any($2) group by page`,
    [projectId, steps],
  );
  const { rows: kinds } = await client.query<{ page: string; kinds: string[] }>(
    `select page, array_agg(kind order by n desc, kind) as kinds
     from (select page, kind, count(*) as n from friction_signals where project_id = $1 and page = any($2) group by page, kind) k
     group by page`,
    [projectId, steps],
  );
  const issues = new Map(kinds.map((k) => [k.page, k.kinds.map((kind) => ISSUE_NAMES[kind] ?? kind)]));
  return new Map(totals.map((t) => [t.page, { ...t, common_issues: issues.get(t.page) ?? [] }]));
}

const NO_FRICTION = { ...noFriction(), common_issues: [] as string[] };

/** Replaces the goal's workflows and their steps. */
async function storeGoal(
  client: PoolClient,
  projectId: string,
  goal: string,
  all: Attempt[],
  workflows: Workflow[],
  friction: Map<string, typeof NO_FRICTION>,
): Promise<void> {
  await client.query(
    `insert into workflow_goals (project_id, goal, computed_at, attempts, completions) values ($1, $2, now(), $3, $4)
     on conflict (project_id, goal) do update set computed_at = now(), attempts = $3, completions = $4`,
    [projectId, goal, all.length, all.filter((a) => a.completed).length],
  );
  await client.query('delete from workflows where project_id = $1 and goal = $2', [projectId, goal]);
  if (workflows.length === 0) return;
  await client.query(
    `insert into workflows (project_id, goal, workflow_id, rank, path, occurrences, frequency, users, user_share,
                            completion_rate, avg_time_seconds, efficiency_score, optimal_steps, actual_avg_steps)
     select $1, $2, w->>'workflow_id', (ord - 1)::int, array(select jsonb_array_elements_text(w->'path')),
            (w->>'occurrences')::int, (w->>'frequency')::float8, (w->>'users')::int, (w->>'user_share')::float8,
            (w->>'completion_rate')::float8, (w->>'avg_time')::float8, (w->>'efficiency_score')::float8,
            (w->>'optimal_steps')::int, (w->>'actual_avg_steps')::float8
     from jsonb_array_elements($3::jsonb) with ordinality as x(w, ord)`,
    [projectId, goal, JSON.stringify(workflows)],
  );
  const steps = workflows.flatMap((w) =>
    w.path
      .map((step, position) => ({ workflow_id: w.workflow_id, position, step, ...(friction.get(step) ?? NO_FRICTION) }))
      .filter((s) => s.step !== ELLIPSIS && s.step !== OTHER),
  );
  if (steps.length === 0) return;
  await client.query(
    `insert into workflow_steps (project_id, workflow_id, position, step, views, clicks, dead_clicks, rage_clicks,
                                 loop_views, backtracks, active_ms, idle_ms, common_issues)
     select $1, s->>'workflow_id', (s->>'position')::int, s->>'step', (s->>'views')::int, (s->>'clicks')::int,
            (s->>'dead_clicks')::int, (s->>'rage_clicks')::int, (s->>'loop_views')::int, (s->>'backtracks')::int,
            (s->>'active_ms')::float8::bigint, (s->>'idle_ms')::float8::bigint,
            array(select jsonb_array_elements_text(s->'common_issues'))
     from jsonb_array_elements($2::jsonb) s`,
    [projectId, JSON.stringify(steps)],
  );
}

/**
 * Brings one project's workflows up to date, in one transaction: when its events changed since
 * the last pass (workflow_changes), every goal is mined again from the stored sessions; otherwise
 * only goals never computed. Goals that are no longer goals lose their rows. `wait` blocks on a
 * concurrent pass of the same project (the API does); the worker skips a busy project instead.
 * Returns how many goals were computed.
 */
export async function refreshProjectWorkflows(db: Pool, projectId: string, wait: boolean): Promise<number> {
  return inTransaction(db, async (client) => {
    const key = [`workflows:${projectId}`];
    if (wait) await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', key);
    else {
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as ok',
        key,
      );
      if (!rows[0]!.ok) return 0;
    }
    // Rows committed before this statement; their events are visible to the reads below.
    const { rowCount: changed } = await client.query('delete from workflow_changes where project_id = $1', [projectId]);
    const goals = await projectGoals(client, projectId);
    const { rows: known } = await client.query<{ goal: string; computed: boolean }>(
      'select goal, computed_at is not null as computed from workflow_goals where project_id = $1',
      [projectId],
    );
    const gone = known.filter((k) => !goals.has(k.goal)).map((k) => k.goal);
    if (gone.length > 0) {
      await client.query('delete from workflow_goals where project_id = $1 and goal = any($2)', [projectId, gone]);
    }
    const computed = new Set(known.filter((k) => k.computed).map((k) => k.goal));
    const stale = [...goals].filter((g) => (changed ?? 0) > 0 || !computed.has(g)).sort();
    if (stale.length === 0) return 0;
    const sessions = await projectSessions(client, projectId);
    const totalUsers = new Set(sessions.map((s) => s.user)).size;
    const mined = stale.map((goal) => {
      const all = sessions.flatMap((s) =>
        attempts(stepsOf(s.events, goal), goal).map((a): Attempt => ({ ...a, user: s.user })),
      );
      return { goal, all, workflows: mineWorkflows(goal, all, undefined, totalUsers) };
    });
    const steps = [...new Set(mined.flatMap((m) => m.workflows.flatMap((w) => w.path)))];
    const friction = await stepFriction(client, projectId, steps);
    for (const m of mined) await storeGoal(client, projectId, m.goal, m.all, m.workflows, friction);
    return stale.length;
  });
}

/** Every project that may need a pass (or just `projectId`); returns how many goals were computed. */
export async function refreshWorkflows(services: Services, projectId?: string): Promise<number> {
  const { db } = services;
  const { rows } = projectId
    ? { rows: [{ project_id: projectId }] }
    : await db.query<{ project_id: string }>(
        `select project_id from workflow_changes
         union select project_id from workflow_goals
         union select project_id from jobs where status = 'active' and goal is not null
         union select project_id from projects where settings ? 'goals'
         order by 1`,
      );
  let computed = 0;
  for (const row of rows) computed += await refreshProjectWorkflows(db, row.project_id, projectId !== undefined);
  return computed;
}
