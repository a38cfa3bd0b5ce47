import type { PoolClient } from '../../lib/db.js';
import { ELLIPSIS, type GoalSummary, OTHER, type Workflow } from '../../domain/workflows/mining.js';
import { NO_FRICTION, type StepFriction } from '../../store/step-friction.js';
import { markGoalComputed } from '../../store/workflow-goals.js';
import { deleteWorkflows, insertWorkflowSteps, insertWorkflows } from '../../store/workflows.js';

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
  await markGoalComputed(
    client,
    projectId,
    goal,
    firsts.reduce((sum, f) => sum + f.attempts, 0),
    firsts.reduce((sum, f) => sum + f.completions, 0),
  );
  await deleteWorkflows(client, projectId, goal);
  if (workflows.length === 0) return;
  await insertWorkflows(client, projectId, goal, workflows);
  const steps = workflows.flatMap((w) =>
    w.path
      .map((step, position) => ({ workflow_id: w.workflow_id, position, step, ...(friction.get(step) ?? NO_FRICTION) }))
      .filter((s) => s.step !== ELLIPSIS && s.step !== OTHER),
  );
  if (steps.length === 0) return;
  await insertWorkflowSteps(client, projectId, steps);
}
