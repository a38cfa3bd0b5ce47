import type { Pool } from '../../lib/db.js';
import type { DateRange } from '../../domain/date-range.js';
import { OTHER } from '../../domain/workflows/mining.js';
import { round } from '../../domain/metrics.js';
import { jobNumbers } from '../../store/job-state.js';
import { jobWithAnalytics } from '../../store/jobs.js';
import { goalPaths } from '../../store/workflows.js';
import { workflowsInRange } from '../../store/workflow-windows.js';
import { WINDOW_PARAMS, optionalDateRange } from '../analytics-params.js';
import { notFound } from '../errors.js';
import { type Route, defineRoute, pathParam } from '../route.js';

/** Paths to success are the goal's discovered workflows (docs/metrics.md, "Workflows"), "other" excluded. */
const PATHS_SHOWN = 5;

type PathToSuccess = { path: string[]; frequency: number; avg_time: number };

/** The goal's most frequent paths: as last mined, or mined from the sessions of the range. */
async function pathsToSuccess(
  db: Pool,
  projectId: string,
  goal: string | null,
  range: DateRange | undefined,
): Promise<PathToSuccess[]> {
  if (goal === null) return [];
  if (range) {
    const mined = await workflowsInRange(db, projectId, [goal], range);
    return mined.filter((w) => w.path[0] !== OTHER).slice(0, PATHS_SHOWN);
  }
  return goalPaths(db, projectId, goal, PATHS_SHOWN);
}

export function jobAnalyticsRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/jobs/:job_id',
      tag: 'Analytics',
      summary: 'How a job performs: completion, time, interventions, paths to success, drop-off points',
      scope: 'analytics:read',
      query: WINDOW_PARAMS,
      success: {
        status: 200,
        schema: 'JobAnalytics',
        description:
          '{ job_id, name, metrics, paths_to_success: [{ path, frequency, avg_time }], drop_off_points, date_range? }: ' +
          'with date_range, of the users who started on the job in its days',
      },
      errors: { 404: 'No such job in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const range = optionalDateRange(ctx);
        const found = await jobWithAnalytics(db, projectId, pathParam(ctx, 'job_id'));
        if (!found) throw notFound('job');
        const job = range ? { ...found, ...(await jobNumbers(db, projectId, found.job_id, range)) } : found;
        const paths = await pathsToSuccess(db, projectId, job.goal, range);
        ctx.body = {
          job_id: job.job_id,
          name: job.name,
          goal: job.goal,
          metrics: {
            completion_rate: round(job.completion_rate ?? 0),
            avg_time_to_completion: round(job.avg_time_to_completion ?? 0),
            intervention_acceptance_rate: round(job.intervention_acceptance_rate ?? 0),
            users_targeted: job.users_targeted ?? 0,
            users_completed: job.users_completed ?? 0,
          },
          paths_to_success: paths.map(({ path, frequency, avg_time }) => ({
            path,
            frequency: round(frequency),
            avg_time: round(avg_time),
          })),
          drop_off_points: (job.drop_off_points ?? []).map(({ step, drop_off_rate, friction_index }) => ({
            step,
            drop_off_rate: round(drop_off_rate),
            friction_index: round(friction_index),
          })),
          ...(range ? { date_range: range } : {}),
        };
      },
    }),
  ];
}
