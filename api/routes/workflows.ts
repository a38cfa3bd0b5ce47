import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from '../../lib/db.js';
import { type FrictionTotals, frictionIndex } from '../../domain/friction/index.js';
import { round } from '../../domain/metrics.js';
import { ELLIPSIS, OTHER, type Workflow } from '../../domain/workflows/mining.js';
import { projectAnalyticsConfig } from '../../store/project-config.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { PAGING_PARAMS, numberParam, pageFields, pageOfList, paging, stringParam } from '../query.js';
import { declaredGoals, setDeclaredGoals } from '../../store/projects.js';
import { type StoredWorkflow, storedWorkflowSteps, workflowEfficiency, workflowPage } from '../../store/workflows.js';
import { audit } from '../../store/audit-log.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { goalComputed, requestGoal } from '../../store/workflow-goals.js';
import { NO_FRICTION, stepFriction } from '../../store/step-friction.js';
import { minedGoals, workflowsInRange } from '../../store/workflow-windows.js';
import { WINDOW_PARAMS, optionalDateRange } from '../analytics-params.js';

/** The longest goal: an event name (schemas/tracked-event.json). */
export const MAX_GOAL_LENGTH = 255;

type StepIssues = { step: string; common_issues: string[] };

const presentWorkflow = (w: Workflow) => ({
  workflow_id: w.workflow_id,
  goal: w.goal,
  path: w.path,
  frequency: round(w.frequency),
  efficiency_score: round(w.efficiency_score),
  avg_time: round(w.avg_time),
  completion_rate: round(w.completion_rate),
  occurrences: w.occurrences,
  users: w.users,
  user_share: round(w.user_share),
});

/**
 * Paths to goals (materialized by workers/workflows/refresh.ts) and the project's declared goals.
 * A goal asked for the first time is mined by the workflows worker, never inside the request: the
 * answer waits for it at most `waitMs`, then says 202 "computing".
 */
export function workflowRoutes(db: Pool, waitMs: number): Route[] {
  const goalReady = async (projectId: string, goal: string): Promise<boolean> => {
    const { workflows } = await projectAnalyticsConfig(db, projectId);
    const request = await requestGoal(db, projectId, goal, workflows.maxRequestedGoals);
    if (request === 'limit_reached') {
      throw new ApiError(
        409,
        'conflict',
        `The project already keeps ${workflows.maxRequestedGoals} requested goals; ask for one of them, declare the goal ` +
          '(PUT /settings/goals), or wait until unused ones expire.',
        { field: 'goal', reason: 'limit_reached', limit: workflows.maxRequestedGoals },
      );
    }
    for (const deadline = Date.now() + waitMs; request === 'pending' && Date.now() < deadline;) {
      await sleep(100);
      if (await goalComputed(db, projectId, goal)) return true;
    }
    return request === 'computed';
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/workflows',
      tag: 'Analytics',
      summary:
        'Paths that led users to a goal, most frequent first; a goal not kept yet is registered and mined by the workflows worker (202 until it is)',
      scope: 'analytics:read',
      query: [
        {
          name: 'goal',
          description: 'an event name; default: every goal kept (active Job goals, declared and asked-for goals)',
          schema: { type: 'string', minLength: 1, maxLength: MAX_GOAL_LENGTH },
        },
        {
          name: 'min_frequency',
          description: 'only paths that reached the goal at least this many times',
          schema: { type: 'number', minimum: 0 },
        },
        ...WINDOW_PARAMS,
        ...PAGING_PARAMS,
      ],
      success: {
        status: 200,
        schema: 'WorkflowList',
        description:
          '{ workflows, total, page_number, page, per_page, next, date_range? }: with date_range, mined from the sessions of its days',
        also: {
          202: '{ workflows: [], total: 0, page_number, page, per_page, next: null, status: "computing" } with Retry-After: a goal asked for the first time is being mined',
        },
      },
      errors: {
        409: 'The project keeps analytics.workflows.maxRequestedGoals requested goals already',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const goal = stringParam(ctx, 'goal');
        if (goal !== undefined && (goal.length === 0 || goal.length > MAX_GOAL_LENGTH)) {
          throw fieldError('goal', 'invalid_length', `goal must be 1 to ${MAX_GOAL_LENGTH} characters long.`);
        }
        const min = numberParam(ctx, 'min_frequency') ?? 0;
        const paged = paging(ctx);
        const range = optionalDateRange(ctx);
        if (goal !== undefined && !(await goalReady(projectId, goal))) {
          ctx.status = 202;
          ctx.set('Retry-After', '5');
          ctx.body = { workflows: [], ...pageFields(paged, 0), status: 'computing' };
          return;
        }
        if (range) {
          const goals = goal !== undefined ? [goal] : await minedGoals(db, projectId);
          const mined = await workflowsInRange(db, projectId, goals, range);
          const { items, total } = pageOfList(
            mined.filter((w) => w.occurrences >= min),
            paged,
          );
          const workflows = items.map(presentWorkflow);
          ctx.body = { workflows, ...pageFields(paged, total), date_range: range };
          return;
        }
        const { rows, total } = await workflowPage(db, projectId, goal ?? null, min, paged);
        ctx.body = {
          workflows: rows.map(({ avg_time_seconds, ...w }) => presentWorkflow({ ...w, avg_time: avg_time_seconds })),
          ...pageFields(paged, total),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/workflows/:workflow_id/efficiency',
      tag: 'Analytics',
      summary: 'Optimal versus actual steps of a workflow, and the friction met at each step',
      scope: 'analytics:read',
      query: WINDOW_PARAMS,
      success: {
        status: 200,
        schema: 'WorkflowEfficiency',
        description: 'Workflow efficiency; with date_range, of the completions and page friction of its days',
      },
      errors: { 404: 'No such workflow, or (with date_range) not completed in the range' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const workflowId = pathParam(ctx, 'workflow_id');
        const range = optionalDateRange(ctx);
        const stored = await workflowEfficiency(db, projectId, workflowId);
        if (!stored) throw notFound('workflow');
        const config = await projectAnalyticsConfig(db, projectId);
        const present = (w: Omit<StoredWorkflow, 'avg_time_seconds'>, steps: (FrictionTotals & StepIssues)[]) => ({
          workflow_id: w.workflow_id,
          goal: w.goal,
          optimal_steps: w.optimal_steps,
          actual_avg_steps: round(w.actual_avg_steps),
          efficiency_score: round(w.efficiency_score),
          friction_points: steps.map((s) => ({
            step: s.step,
            friction_index: round(frictionIndex(s, config.weights)),
            common_issues: s.common_issues,
          })),
        });
        if (range) {
          const workflow = (await workflowsInRange(db, projectId, [stored.goal], range)).find(
            (w) => w.workflow_id === workflowId,
          );
          if (!workflow) {
            throw new ApiError(404, 'not_found', 'The workflow was not completed in the date range.', {
              field: 'date_range',
              reason: 'not_in_range',
            });
          }
          const friction = await stepFriction(db, projectId, workflow.path, range);
          const steps = workflow.path
            .filter((step) => step !== ELLIPSIS && step !== OTHER)
            .map((step) => ({ step, ...(friction.get(step) ?? NO_FRICTION) }));
          ctx.body = { ...present(workflow, steps), occurrences: workflow.occurrences, date_range: range };
          return;
        }
        ctx.body = present(stored, await storedWorkflowSteps(db, projectId, workflowId));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/settings/goals',
      tag: 'Settings',
      summary: "The project's declared goal events",
      scope: 'admin',
      success: { status: 200, schema: 'Goals', description: '{ goals }' },
      async handle(ctx) {
        ctx.body = { goals: await declaredGoals(db, ctx.state.auth.projectId) };
      },
    }),
    defineRoute<{ goals: string[] }>({
      method: 'PUT',
      path: '/settings/goals',
      tag: 'Settings',
      summary: "Replace the project's declared goal events (their workflows are mined within a poll interval)",
      scope: 'admin',
      body: 'goal-settings.json',
      success: { status: 200, schema: 'Goals', description: '{ goals }' },
      async handle(ctx, input) {
        await setDeclaredGoals(db, ctx.state.auth.projectId, input.goals);
        await audit(db, ctx, 'settings.changed', 'goals', { goals: input.goals });
        ctx.body = { goals: input.goals };
      },
    }),
  ];
}
