import type { PoolClient } from '../../lib/db.js';
import { type FrictionTotals, noFriction } from '../../domain/friction/index.js';
import { ELLIPSIS, type GoalSummary, OTHER, type Workflow } from '../../domain/workflows/mining.js';
import { FACT_NAMES, factsFromJson, summedFacts } from '../../store/friction-facts.js';

/** Signal kinds as friction_points[].common_issues names them. */
export const ISSUE_NAMES: Record<string, string> = {
  confusion_loop: 'confusion',
  backtrack: 'backtracking',
  rage_click: 'rage clicks',
  dead_click: 'dead clicks',
  idle: 'idle',
};

/**
 * How many signals of each kind a page's daily row counts: one dead click, rage burst, loop,
 * backtrack or idle gap each (domain/friction/session.ts), so these sums equal a count of the
 * page's friction_signals, read from rows per day rather than per signal.
 */
const SIGNAL_COUNTS = `coalesce(sum(p.dead_clicks), 0)::int as dead_click, coalesce(sum(p.rage_episodes), 0)::int as rage_click,
  coalesce(sum(p.loops), 0)::int as confusion_loop, coalesce(sum(p.backtracks), 0)::int as backtrack,
  coalesce(sum(p.idle_gaps), 0)::int as idle`;

export type StepFriction = FrictionTotals & { common_issues: string[] };

/** Friction facts of the steps that are pages (over all days) and the kinds of signal seen there, most first. */
export async function stepFriction(
  client: PoolClient,
  projectId: string,
  steps: string[],
): Promise<Map<string, StepFriction>> {
  const { rows } = await client.query<FrictionTotals & Record<string, number> & { page: string }>(
    `select p.page, ${summedFacts('p')}, ${SIGNAL_COUNTS}
     from friction_page_daily p where project_id = $1 and page = any($2) group by page`,
    [projectId, steps],
  );
  return new Map(
    rows.map(({ dead_click, rage_click, confusion_loop, backtrack, idle, ...totals }) => {
      const counts = Object.entries({ dead_click, rage_click, confusion_loop, backtrack, idle }) as [string, number][];
      const issues = counts
        .filter(([, n]) => n > 0)
        .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1))
        .map(([kind]) => ISSUE_NAMES[kind]!);
      return [totals.page, { ...totals, common_issues: issues }];
    }),
  );
}

const NO_FRICTION: StepFriction = { ...noFriction(), common_issues: [] };

/** Replaces the goal's workflows and their steps. */
export async function storeGoal(
  client: PoolClient,
  projectId: string,
  goal: string,
  summary: GoalSummary,
  workflows: Workflow[],
  friction: Map<string, StepFriction>,
): Promise<void> {
  const firsts = [...summary.firstSteps.values()];
  await client.query(
    `insert into workflow_goals (project_id, goal, computed_at, attempts, completions) values ($1, $2, now(), $3, $4)
     on conflict (project_id, goal) do update set computed_at = now(), attempts = $3, completions = $4`,
    [
      projectId,
      goal,
      firsts.reduce((sum, f) => sum + f.attempts, 0),
      firsts.reduce((sum, f) => sum + f.completions, 0),
    ],
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
    `insert into workflow_steps (project_id, workflow_id, position, step, ${FACT_NAMES}, common_issues)
     select $1, s->>'workflow_id', (s->>'position')::int, s->>'step', ${factsFromJson('s')},
            array(select jsonb_array_elements_text(s->'common_issues'))
     from jsonb_array_elements($2::jsonb) s`,
    [projectId, JSON.stringify(steps)],
  );
}
