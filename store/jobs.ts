import type { Pool, PoolClient } from '../lib/db.js';
import type { JobState } from '../domain/jobs/states.js';
import type { JobNumbers } from './job-state.js';
import { type PageWindow, pageOf } from './pages.js';

/** jobs as the API keeps them (api/routes/jobs.ts), with the numbers the jobs worker keeps in job_analytics. */

type Db = Pool | PoolClient;

export interface JobRow {
  job_id: string;
  name: string;
  description: string | null;
  goal: string | null;
  status: JobState;
  priority: string | null;
  target_audience: { type: 'all' | 'segment'; criteria?: string } | null;
  automation: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** A job's numbers as job_analytics holds them (rates not yet rounded). */
export interface JobAnalyticsRow {
  job_id: string;
  completion_rate: number;
  avg_time_to_completion: number;
  users_targeted: number;
  users_completed: number;
}

/** The fields a job's update may change, in the column order of its statement. */
const UPDATABLE = ['name', 'description', 'goal', 'priority', 'status', 'target_audience', 'automation'] as const;
type Updatable = (typeof UPDATABLE)[number];

/** Reads the jobs' numbers from job_analytics (jobs not measured yet have no row). */
export async function jobAnalytics(db: Db, projectId: string, jobIds: string[]): Promise<JobAnalyticsRow[]> {
  const { rows } = await db.query<JobAnalyticsRow>(
    `select job_id, completion_rate, avg_time_to_completion, users_targeted, users_completed
     from job_analytics where project_id = $1 and job_id = any ($2::text[])`,
    [projectId, jobIds],
  );
  return rows;
}

/** Reads a job; with `lock`, holds its row for update to commit. */
export async function jobById(db: Db, projectId: string, jobId: string, lock = false): Promise<JobRow | undefined> {
  const { rows } = await db.query<JobRow>(
    `select * from jobs where project_id = $1 and job_id = $2${lock ? ' for update' : ''}`,
    [projectId, jobId],
  );
  return rows[0];
}

/** Reads a page of a project's jobs (of one status, or all when null), newest first, and their total. */
export async function jobPage(db: Pool, projectId: string, status: string | null, page: PageWindow) {
  return pageOf<JobRow>(
    db,
    {
      columns: '*',
      from: 'jobs',
      where: 'project_id = $1 and ($2::text is null or status = $2)',
      order: 'created_at desc, job_id',
    },
    [projectId, status],
    page,
  );
}

/** Inserts a job (status as the table's default). */
export async function insertJob(
  db: Pool,
  job: { projectId: string; jobId: string } & Record<Exclude<Updatable, 'status'>, unknown>,
): Promise<JobRow> {
  const { rows } = await db.query<JobRow>(
    `insert into jobs (project_id, job_id, name, description, goal, priority, target_audience, automation)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
    [job.projectId, job.jobId, job.name, job.description, job.goal, job.priority, job.target_audience, job.automation],
  );
  return rows[0]!;
}

/** Updates the fields `change` holds (undefined keeps a field, null clears it) and reads the job after. */
export async function updateJob(
  client: PoolClient,
  projectId: string,
  jobId: string,
  change: Partial<Record<Updatable, unknown>>,
): Promise<JobRow> {
  // Each field: $3 + 2i says whether it was given, $4 + 2i its value.
  const { rows } = await client.query<JobRow>(
    `update jobs set ${UPDATABLE.map((f, i) => `${f} = case when $${3 + 2 * i} then $${4 + 2 * i} else ${f} end`).join(', ')},
         updated_at = now()
       where project_id = $1 and job_id = $2 returning *`,
    [projectId, jobId, ...UPDATABLE.flatMap((f) => [change[f] !== undefined, change[f] ?? null])],
  );
  return rows[0]!;
}

/** Deletes a job; whether it existed. */
export async function deleteJob(client: PoolClient, projectId: string, jobId: string): Promise<boolean> {
  const { rowCount } = await client.query('delete from jobs where project_id = $1 and job_id = $2', [projectId, jobId]);
  return rowCount !== 0;
}

/**
 * Deletes what the pipeline kept for a job: its job_targets, job_analytics, job_interventions and
 * job_completions rows, one statement each, in that order.
 */
export async function deleteJobKeptRows(client: PoolClient, projectId: string, jobId: string): Promise<void> {
  for (const table of ['job_targets', 'job_analytics', 'job_interventions', 'job_completions']) {
    await client.query(`delete from ${table} where project_id = $1 and job_id = $2`, [projectId, jobId]);
  }
}

/** A job's name and goal with the numbers job_analytics holds for it (none before it was measured). */
export interface JobWithNumbers extends Partial<JobNumbers> {
  job_id: string;
  name: string;
  goal: string | null;
}

/** Reads a job's name and goal with its numbers from job_analytics (none before the jobs worker measured it). */
export async function jobWithAnalytics(
  db: Pool,
  projectId: string,
  jobId: string,
): Promise<JobWithNumbers | undefined> {
  const { rows } = await db.query<JobWithNumbers>(
    `select j.job_id, j.name, j.goal, a.users_targeted, a.users_completed, a.completion_rate,
            a.avg_time_to_completion, a.intervention_acceptance_rate, a.drop_off_points
     from jobs j left join job_analytics a using (project_id, job_id)
     where j.project_id = $1 and j.job_id = $2`,
    [projectId, jobId],
  );
  return rows[0];
}
