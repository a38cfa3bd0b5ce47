import type { Pool, PoolClient } from '../lib/db.js';

/** The channel the API wakes the workflows worker on when a goal is asked for the first time. */
export const WORKFLOW_GOAL_CHANNEL = 'pi_workflow_goal';

export type GoalRequest = 'computed' | 'pending' | 'limit_reached';

/**
 * Records that `goal` was asked for. A goal not kept yet is added (and the workflows worker woken)
 * only while the project keeps fewer than `limit` requested goals; the worker mines it.
 */
export async function requestGoal(db: Pool, projectId: string, goal: string, limit: number): Promise<GoalRequest> {
  const { rows } = await db.query<{ computed: boolean }>(
    `update workflow_goals set requested = true, requested_at = now()
     where project_id = $1 and goal = $2 returning computed_at is not null as computed`,
    [projectId, goal],
  );
  if (rows[0]) return rows[0].computed ? 'computed' : 'pending';
  const { rowCount } = await db.query(
    `with added as (
       insert into workflow_goals (project_id, goal, requested, requested_at)
       select $1, $2, true, now()
       where (select count(*) from workflow_goals where project_id = $1 and requested) < $3
       on conflict (project_id, goal) do update set requested = true, requested_at = now()
       returning 1)
     select pg_notify($4, json_build_object('project_id', $1::text)::text) from added`,
    [projectId, goal, limit, WORKFLOW_GOAL_CHANNEL],
  );
  return (rowCount ?? 0) > 0 ? 'pending' : 'limit_reached';
}

/** Whether the worker has mined `goal` (its workflows, possibly none, are stored). */
export async function goalComputed(db: Pool, projectId: string, goal: string): Promise<boolean> {
  const { rows } = await db.query<{ computed: boolean }>(
    'select computed_at is not null as computed from workflow_goals where project_id = $1 and goal = $2',
    [projectId, goal],
  );
  return rows[0]?.computed ?? false;
}

/**
 * The goals a project's workflows are kept for: its active Jobs' goals, the goals declared in
 * projects.settings.goals (PUT /settings/goals), and the goals asked for (requestGoal) in the last
 * `requestedTtlDays` (older requests are forgotten).
 */
export async function keptGoals(client: PoolClient, projectId: string, requestedTtlDays: number): Promise<string[]> {
  const { rows } = await client.query<{ goal: string }>(
    `select goal from jobs where project_id = $1 and status = 'active' and goal is not null
     union select jsonb_array_elements_text(coalesce(settings->'goals', '[]')) from projects where project_id = $1
     union select goal from workflow_goals
       where project_id = $1 and requested and requested_at > now() - $2::int * interval '1 day'`,
    [projectId, requestedTtlDays],
  );
  return rows.map((r) => r.goal);
}

/** The goals with a workflow_goals row, and whether each was mined. */
export async function storedGoals(
  client: PoolClient,
  projectId: string,
): Promise<{ goal: string; computed: boolean }[]> {
  const { rows } = await client.query<{ goal: string; computed: boolean }>(
    'select goal, computed_at is not null as computed from workflow_goals where project_id = $1',
    [projectId],
  );
  return rows;
}

/** Deletes goals no longer kept; their workflows go with them (on delete cascade). */
export async function deleteGoals(client: PoolClient, projectId: string, goals: string[]): Promise<void> {
  await client.query('delete from workflow_goals where project_id = $1 and goal = any($2)', [projectId, goals]);
}

/** Adds a row for each goal that has none: a goal's sums reference its row. */
export async function addGoals(client: PoolClient, projectId: string, goals: string[]): Promise<void> {
  await client.query(
    `insert into workflow_goals (project_id, goal) select $1, unnest($2::text[]) on conflict do nothing`,
    [projectId, goals],
  );
}

/** Marks a goal mined now, with its attempts and completions. */
export async function markGoalComputed(
  client: PoolClient,
  projectId: string,
  goal: string,
  attempts: number,
  completions: number,
): Promise<void> {
  await client.query(
    `insert into workflow_goals (project_id, goal, computed_at, attempts, completions) values ($1, $2, now(), $3, $4)
     on conflict (project_id, goal) do update set computed_at = now(), attempts = $3, completions = $4`,
    [projectId, goal, attempts, completions],
  );
}

/**
 * The projects that may need a workflows pass: with changes waiting (workflow_changes,
 * workflow_session_changes), with goals kept, with active Jobs that have a goal, or declared goals.
 */
export async function projectsWithGoals(db: Pool): Promise<string[]> {
  const { rows } = await db.query<{ project_id: string }>(
    `select project_id from workflow_changes
         union select project_id from workflow_session_changes
         union select project_id from workflow_goals
         union select project_id from jobs where status = 'active' and goal is not null
         union select project_id from projects where settings ? 'goals'
         order by 1`,
  );
  return rows.map((r) => r.project_id);
}

/**
 * Reads a version of the project's mined goals: every goal with its computed_at, as JSON text, so
 * it moves whenever the workflows worker writes a goal again or drops one.
 */
export async function goalsVersion(db: Pool, projectId: string): Promise<string> {
  const { rows } = await db.query<{ version: string }>(
    `select coalesce(json_agg(json_build_array(goal, computed_at) order by goal)::text, '[]') as version
     from workflow_goals where project_id = $1`,
    [projectId],
  );
  return rows[0]!.version;
}
