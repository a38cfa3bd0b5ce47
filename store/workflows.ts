import { type Workflow } from '../domain/workflows/mining.js';
import type { Pool, PoolClient } from '../lib/db.js';
import type { FrictionTotals } from '../domain/friction/index.js';
import { FACT_NAMES, factsFromJson, factsOf } from './friction-facts.js';
import { type PageWindow, pageOf } from './pages.js';
import type { StepFriction } from './step-friction.js';

/**
 * workflows and workflow_steps: each kept goal's workflows from its latest mining, written by the
 * workflows worker in its project's pass (store/locks.ts, projectPass) and read by reports.
 */

/** A step of a stored workflow with its friction (workflow_steps). */
export type StoredStep = StepFriction & { workflow_id: string; position: number; step: string };

/** Deletes a goal's workflows; their steps go with them (on delete cascade). */
export async function deleteWorkflows(client: PoolClient, projectId: string, goal: string): Promise<void> {
  await client.query('delete from workflows where project_id = $1 and goal = $2', [projectId, goal]);
}

/** Inserts a goal's workflows, ranked in the order given. */
export async function insertWorkflows(
  client: PoolClient,
  projectId: string,
  goal: string,
  workflows: Workflow[],
): Promise<void> {
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
}

/** Inserts the steps of a project's workflows with their friction facts and common issues. */
export async function insertWorkflowSteps(client: PoolClient, projectId: string, steps: StoredStep[]): Promise<void> {
  await client.query(
    `insert into workflow_steps (project_id, workflow_id, position, step, ${FACT_NAMES}, common_issues)
     select $1, s->>'workflow_id', (s->>'position')::int, s->>'step', ${factsFromJson('s')},
            array(select jsonb_array_elements_text(s->'common_issues'))
     from jsonb_array_elements($2::jsonb) s`,
    [projectId, JSON.stringify(steps)],
  );
}

/** A kept goal with one of its workflows, or with nulls when it has none. */
export interface GoalWorkflowRow {
  goal: string;
  computed_at: Date | null;
  completions: number;
  workflow_id: string | null;
  path: string[] | null;
  frequency: number | null;
  occurrences: number | null;
  users: number | null;
  completion_rate: number | null;
  avg_time: number | null;
  efficiency_score: number | null;
}

/**
 * Every goal the project keeps with its workflows in rank order, in one statement so that goals
 * and workflows come from the same pass of the miner.
 */
export async function goalsWithWorkflows(db: Pool, projectId: string): Promise<GoalWorkflowRow[]> {
  const { rows } = await db.query<GoalWorkflowRow>(
    `select g.goal, g.computed_at, g.completions, w.workflow_id, w.path, w.frequency, w.occurrences, w.users,
            w.completion_rate, w.avg_time_seconds as avg_time, w.efficiency_score
     from workflow_goals g left join workflows w on w.project_id = g.project_id and w.goal = g.goal
     where g.project_id = $1 order by g.goal, w.rank`,
    [projectId],
  );
  return rows;
}

/** A stored workflow as the API reads it (the miner's Workflow, avg_time in its column's name). */
export type StoredWorkflow = Omit<Workflow, 'avg_time'> & { avg_time_seconds: number };

/**
 * Reads a page of the project's workflows (of one goal, or all when null) seen at least
 * `minOccurrences` times, by goal and rank, and their total.
 */
export async function workflowPage(
  db: Pool,
  projectId: string,
  goal: string | null,
  minOccurrences: number,
  page: PageWindow,
) {
  return pageOf<StoredWorkflow>(
    db,
    {
      columns: `workflow_id, goal, path, occurrences, frequency, users, user_share, completion_rate, avg_time_seconds,
                efficiency_score, optimal_steps, actual_avg_steps`,
      from: 'workflows',
      where: 'project_id = $1 and ($2::text is null or goal = $2) and occurrences >= $3::float8',
      order: 'goal, rank',
    },
    [projectId, goal, minOccurrences],
    page,
  );
}

/** Reads a stored workflow's path and efficiency (only those columns are read). */
export async function workflowEfficiency(
  db: Pool,
  projectId: string,
  workflowId: string,
): Promise<StoredWorkflow | undefined> {
  const { rows } = await db.query<StoredWorkflow>(
    `select workflow_id, goal, path, optimal_steps, actual_avg_steps, efficiency_score
     from workflows where project_id = $1 and workflow_id = $2`,
    [projectId, workflowId],
  );
  return rows[0];
}

/** Reads a stored workflow's steps in order, with their friction facts and common issues (workflow_steps). */
export async function storedWorkflowSteps(
  db: Pool,
  projectId: string,
  workflowId: string,
): Promise<(FrictionTotals & { step: string; common_issues: string[] })[]> {
  const { rows } = await db.query<FrictionTotals & { step: string; common_issues: string[] }>(
    `select step, ${factsOf('s')}, common_issues
     from workflow_steps s where project_id = $1 and workflow_id = $2 order by position`,
    [projectId, workflowId],
  );
  return rows;
}

/** Reads every stored workflow's id, goal and path, by goal and rank. */
export async function workflowPaths(
  db: Pool,
  projectId: string,
): Promise<{ workflow_id: string; goal: string; path: string[] }[]> {
  const { rows } = await db.query<{ workflow_id: string; goal: string; path: string[] }>(
    'select workflow_id, goal, path from workflows where project_id = $1 order by goal, rank',
    [projectId],
  );
  return rows;
}

/** Reads a goal's `limit` first-ranked stored paths, the "other" path left out, with their frequency and time. */
export async function goalPaths(
  db: Pool,
  projectId: string,
  goal: string,
  limit: number,
): Promise<{ path: string[]; frequency: number; avg_time: number }[]> {
  const { rows } = await db.query<{ path: string[]; frequency: number; avg_time: number }>(
    `select path, frequency, avg_time_seconds as avg_time from workflows
     where project_id = $1 and goal = $2 and not (path = array['other'])
     order by rank limit $3`,
    [projectId, goal, limit],
  );
  return rows;
}
