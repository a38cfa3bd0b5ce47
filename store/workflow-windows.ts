import type { DateRange } from '../domain/date-range.js';
import { DEFAULT_PATH_RULES, type Workflow, workflowsOf } from '../domain/workflows/mining.js';
import type { Pool } from '../lib/db.js';
import { usersWithSessionsIn } from './user-metrics.js';
import { goalSummary } from './workflow-attempts.js';

/**
 * The workflows of `goals` over the sessions of the days of `range`: each goal's summary of those
 * days (store/workflow-attempts.ts, goalSummary) through the miner's one formula (workflowsOf), with
 * user_share over the users who had a session in the range. Work bounded by the goals' paths and
 * first steps times the days of the range, never by their attempts.
 */
export async function workflowsInRange(
  db: Pool,
  projectId: string,
  goals: string[],
  range: DateRange,
): Promise<Workflow[]> {
  const totalUsers = await usersWithSessionsIn(db, projectId, range);
  const workflows: Workflow[] = [];
  for (const goal of goals) {
    const summary = await goalSummary(db, projectId, goal, DEFAULT_PATH_RULES, range);
    workflows.push(...workflowsOf(goal, summary, DEFAULT_PATH_RULES, totalUsers));
  }
  return workflows;
}

/** The goals whose workflows are kept (mined at least once), in the order the stored answers list them. */
export async function minedGoals(db: Pool, projectId: string): Promise<string[]> {
  const { rows } = await db.query<{ goal: string }>(
    'select goal from workflow_goals where project_id = $1 and computed_at is not null order by goal',
    [projectId],
  );
  return rows.map((r) => r.goal);
}
