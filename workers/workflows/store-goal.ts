import type { PoolClient } from '../../lib/db.js';
import { ELLIPSIS, type GoalSummary, OTHER, type Workflow } from '../../domain/workflows/mining.js';
import { FACT_NAMES, factsFromJson } from '../../store/friction-facts.js';
import { NO_FRICTION, type StepFriction } from '../../store/step-friction.js';

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
