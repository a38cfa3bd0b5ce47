import type { Pool } from '../../lib/db.js';
import { round } from '../../domain/metrics.js';
import { notFound } from '../errors.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface JobAnalyticsRow {
  job_id: string;
  name: string;
  goal: string | null;
  users_targeted: number | null;
  users_completed: number | null;
  completion_rate: number | null;
  avg_time_to_completion: number | null;
  intervention_acceptance_rate: number | null;
  drop_off_points: { step: string; drop_off_rate: number; friction_index: number }[] | null;
}

/** Paths to success are the goal's discovered workflows (docs/metrics.md, "Workflows"), "other" excluded. */
const PATHS_SHOWN = 5;

export function jobAnalyticsRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/jobs/:job_id',
      tag: 'Analytics',
      summary: 'How a job performs: completion, time, interventions, paths to success, drop-off points',
      scope: 'analytics:read',
      success: {
        status: 200,
        schema: 'JobAnalytics',
        description: '{ job_id, name, metrics, paths_to_success: [{ path, frequency, avg_time }], drop_off_points }',
      },
      errors: { 404: 'No such job in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const { rows } = await db.query<JobAnalyticsRow>(
          `select j.job_id, j.name, j.goal, a.users_targeted, a.users_completed, a.completion_rate,
                  a.avg_time_to_completion, a.intervention_acceptance_rate, a.drop_off_points
           from jobs j left join job_analytics a using (project_id, job_id)
           where j.project_id = $1 and j.job_id = $2`,
          [projectId, pathParam(ctx, 'job_id')],
        );
        const job = rows[0];
        if (!job) throw notFound('job');
        const { rows: paths } = await db.query<{ path: string[]; frequency: number; avg_time: number }>(
          `select path, frequency, avg_time_seconds as avg_time from workflows
           where project_id = $1 and goal = $2 and not (path = array['other'])
           order by rank limit $3`,
          [projectId, job.goal, PATHS_SHOWN],
        );
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
        };
      },
    }),
  ];
}
