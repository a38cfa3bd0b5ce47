import type { Pool, PoolClient } from '../../lib/db.js';
import { inTransaction } from '../../lib/db.js';
import { CriteriaError, parseCriteria } from '../../domain/jobs/audience.js';
import { newId } from '../../lib/ids.js';
import { JOB_STATES, type JobState, allowedMoves, canMove } from '../../domain/jobs/states.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { PAGING_PARAMS, pageFields, paging, stringParam } from '../query.js';
import {
  type JobRow,
  deleteJob,
  deleteJobKeptRows,
  insertJob,
  jobAnalytics,
  jobById,
  jobPage,
  updateJob,
} from '../../store/jobs.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { round } from '../../domain/metrics.js';

interface TargetAudience {
  type: 'all' | 'segment';
  criteria?: string;
}
interface JobInput {
  name?: string;
  description?: string;
  goal?: string;
  priority?: string;
  status?: JobState;
  target_audience?: TargetAudience;
  automation?: { level?: string; requires_confirmation?: boolean };
}
/** A PATCH body: null clears a field; the read-only fields of a job as read are accepted (job-update.json). */
type JobUpdate = {
  [K in keyof JobInput]?: JobInput[K] | (K extends 'name' | 'priority' | 'status' ? never : null);
} & { id?: string };

/** Segment audiences need criteria that parse; checked at create and update. */
function checkAudience(audience: TargetAudience | undefined): void {
  if (!audience) return;
  if (audience.type === 'segment') {
    if (audience.criteria === undefined) {
      throw fieldError('target_audience.criteria', 'required', 'target_audience.criteria is required for a segment.');
    }
    try {
      parseCriteria(audience.criteria);
    } catch (err) {
      if (!(err instanceof CriteriaError)) throw err;
      throw fieldError('target_audience.criteria', 'invalid_expression', `target_audience.criteria: ${err.message}`);
    }
  }
}

export interface JobMetrics {
  completion_rate: number;
  avg_time_to_completion: number;
  users_targeted: number;
  users_completed: number;
}

/** A job the jobs worker has not measured yet has targeted and completed no one. */
const NO_METRICS: JobMetrics = { completion_rate: 0, avg_time_to_completion: 0, users_targeted: 0, users_completed: 0 };

/** The jobs' numbers as the jobs worker materialized them (the same as GET /analytics/jobs/{id}). */
async function metricsOf(db: Pool | PoolClient, projectId: string, jobIds: string[]): Promise<Map<string, JobMetrics>> {
  const rows = await jobAnalytics(db, projectId, jobIds);
  return new Map(
    rows.map(({ job_id, completion_rate, avg_time_to_completion, ...m }) => [
      job_id,
      { ...m, completion_rate: round(completion_rate), avg_time_to_completion: round(avg_time_to_completion) },
    ]),
  );
}

export function presentJob(row: JobRow, metrics: JobMetrics = NO_METRICS) {
  return {
    id: row.job_id,
    name: row.name,
    description: row.description,
    goal: row.goal,
    status: row.status,
    priority: row.priority,
    target_audience: row.target_audience,
    automation: row.automation,
    metrics,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function presentListItem(row: JobRow, metrics: JobMetrics = NO_METRICS) {
  const { completion_rate, users_targeted, users_completed } = metrics;
  return {
    id: row.job_id,
    name: row.name,
    status: row.status,
    priority: row.priority,
    created_at: row.created_at.toISOString(),
    metrics: { completion_rate, users_targeted, users_completed },
  };
}

async function findJob(db: Pool | PoolClient, projectId: string, jobId: string, lock = false): Promise<JobRow> {
  const job = await jobById(db, projectId, jobId, lock);
  if (!job) throw notFound('job');
  return job;
}

export function jobRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/jobs',
      tag: 'Jobs',
      summary: 'List jobs, newest first',
      scope: 'admin',
      query: [
        ...PAGING_PARAMS,
        { name: 'status', description: 'only jobs in this state', schema: { enum: [...JOB_STATES] } },
      ],
      success: { status: 200, schema: 'JobList', description: '{ jobs, total, page_number, page, per_page, next }' },
      async handle(ctx) {
        const paged = paging(ctx);
        const status = stringParam(ctx, 'status', JOB_STATES) ?? null;
        const { projectId } = ctx.state.auth;
        const { rows, total } = await jobPage(db, projectId, status, paged);
        const metrics = await metricsOf(
          db,
          projectId,
          rows.map((r) => r.job_id),
        );
        ctx.body = {
          jobs: rows.map((r) => presentListItem(r, metrics.get(r.job_id))),
          ...pageFields(paged, total),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/jobs/:job_id',
      tag: 'Jobs',
      summary: 'Get a job',
      scope: 'admin',
      success: { status: 200, schema: 'Job', description: 'the full job' },
      errors: { 404: 'No such job in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const job = await findJob(db, projectId, pathParam(ctx, 'job_id'));
        ctx.body = presentJob(job, (await metricsOf(db, projectId, [job.job_id])).get(job.job_id));
      },
    }),
    defineRoute<JobInput>({
      method: 'POST',
      path: '/jobs',
      tag: 'Jobs',
      summary: 'Create a job (status draft)',
      scope: 'admin',
      body: 'job-create.json',
      success: { status: 201, schema: 'JobCreated', description: '{ id, name, status, created_at }' },
      async handle(ctx, input) {
        checkAudience(input.target_audience);
        const job = await insertJob(db, {
          projectId: ctx.state.auth.projectId,
          jobId: newId('job'),
          name: input.name,
          description: input.description ?? null,
          goal: input.goal ?? null,
          priority: input.priority ?? null,
          target_audience: input.target_audience ?? null,
          automation: input.automation ?? null,
        });
        ctx.status = 201;
        ctx.set('Location', `${ctx.path}/${job.job_id}`);
        ctx.body = { id: job.job_id, name: job.name, status: job.status, created_at: job.created_at.toISOString() };
      },
    }),
    defineRoute<JobUpdate>({
      method: 'PATCH',
      path: '/jobs/:job_id',
      tag: 'Jobs',
      summary: 'Update any subset of a job; status moves along the job state machine',
      scope: 'admin',
      body: 'job-update.json',
      success: { status: 200, schema: 'Job', description: 'the full job after the update' },
      errors: {
        400: 'id names another job, or the job would be active without a goal',
        404: 'No such job in this project',
        409: 'Illegal status move (details.from, details.to, details.allowed)',
      },
      async handle(ctx, input) {
        checkAudience(input.target_audience ?? undefined);
        const updated = await inTransaction(db, async (client) => {
          const job = await findJob(client, ctx.state.auth.projectId, pathParam(ctx, 'job_id'), true);
          if (input.id !== undefined && input.id !== job.job_id) {
            throw fieldError('id', 'invalid_value', `id is read-only: this is job ${job.job_id}, not ${input.id}.`);
          }
          // Made active, or its goal cleared while active (a job already active without one may still be renamed).
          const activates = input.status === 'active' && job.status !== 'active';
          const clears = input.goal === null && (input.status ?? job.status) === 'active';
          if ((activates && (input.goal === undefined ? job.goal : input.goal) === null) || clears) {
            throw fieldError('goal', 'required', 'An active job needs a goal: the event that completes it.');
          }
          if (input.status && !canMove(job.status, input.status)) {
            throw new ApiError(409, 'conflict', `A ${job.status} job cannot become ${input.status}.`, {
              field: 'status',
              from: job.status,
              to: input.status,
              allowed: allowedMoves(job.status),
            });
          }
          return updateJob(client, ctx.state.auth.projectId, job.job_id, input);
        });
        const metrics = await metricsOf(db, ctx.state.auth.projectId, [updated.job_id]);
        ctx.body = presentJob(updated, metrics.get(updated.job_id));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/jobs/:job_id',
      tag: 'Jobs',
      summary: 'Delete a job',
      scope: 'admin',
      success: { status: 200, schema: 'Deleted', description: '{ id, deleted: true }' },
      errors: { 404: 'No such job in this project' },
      async handle(ctx) {
        const [projectId, jobId] = [ctx.state.auth.projectId, pathParam(ctx, 'job_id')];
        const deleted = await inTransaction(db, async (client) => {
          const existed = await deleteJob(client, projectId, jobId);
          // What the pipeline kept for the job goes with it.
          await deleteJobKeptRows(client, projectId, jobId);
          return existed;
        });
        if (!deleted) throw notFound('job');
        ctx.body = { id: pathParam(ctx, 'job_id'), deleted: true };
      },
    }),
  ];
}
