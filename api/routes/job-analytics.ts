import type { Pool } from '../../lib/db.js';
import type { DateRange } from '../../domain/date-range.js';
import { OTHER } from '../../domain/workflows/mining.js';
import { round } from '../../domain/metrics.js';
import { type JobNumbers, jobNumbers } from '../../store/job-state.js';
import { workflowsInRange } from '../../store/workflow-windows.js';
import { WINDOW_PARAMS, optionalDateRange } from '../analytics-params.js';
import { notFound } from '../errors.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface JobAnalyticsRow extends Partial<JobNumbers> {
  job_id: string;
  name: string;
  goal: string | null;
}

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
  const { rows } = await db.query<PathToSuccess>(
    `select path, frequency, avg_time_seconds as avg_time from workflows
     where project_id = $1 and goal = $2 and not (path = array['other'])
     order by rank limit $3`,
    [projectId, goal, PATHS_SHOWN],
  );
  return rows;
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
        const { rows } = await db.query<JobAnalyticsRow>(
          `select j.job_id, j.name, j.goal, a.users_targeted, a.users_completed, a.completion_rate,
                  a.avg_time_to_completion, a.intervention_acceptance_rate, a.drop_off_points
           from jobs j left join job_analytics a using (project_id, job_id)
           where j.project_id = $1 and j.job_id = $2`,
          [projectId, pathParam(ctx, 'job_id')],
        );
        const found = rows[0];
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
