import type { Pool } from '../lib/db.js';

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
