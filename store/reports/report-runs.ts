import type { Pool, PoolClient } from '../../lib/db.js';
import type { Schedule } from '../../domain/reports/schedule.js';
import type { RunJob } from './queue.js';

/**
 * reports and report_runs as the reports worker reads and writes them (workers/reports/runs.ts): the
 * scheduler's tick inserts a period's runs, and each run's attempt moves its status.
 */

/** A run with its report, as an attempt reads it. */
export interface StoredRun {
  name: string;
  type: string;
  format: string;
  recipients: string[];
  period_start: string;
  period_end: string;
  status: string;
}

/** The reports of `schedule` that existed at `due`. */
export async function reportsOfSchedule(
  client: PoolClient,
  schedule: Schedule,
  due: Date,
): Promise<{ project_id: string; report_id: string }[]> {
  const { rows } = await client.query<{ project_id: string; report_id: string }>(
    `select project_id, report_id from reports where schedule = $1 and created_at <= $2`,
    [schedule, due],
  );
  return rows;
}

/**
 * One scheduled run per report for the period, with the report's recipients; a report deleted
 * since is skipped, and a run the period has already (report_runs_one_per_period) is not inserted
 * again. Returns the runs inserted.
 */
export async function insertScheduledRuns(
  client: PoolClient,
  period: { start: string; end: string },
  runs: { project_id: string; report_id: string; run_id: string }[],
): Promise<RunJob[]> {
  const { rows } = await client.query<RunJob>(
    `insert into report_runs (project_id, report_id, run_id, trigger, period_start, period_end, recipients)
       select r.project_id, r.report_id, c.run_id, 'schedule', $1, $2, r.recipients
       from unnest($3::uuid[], $4::text[], $5::text[]) as c (project_id, report_id, run_id)
       join reports r on r.project_id = c.project_id and r.report_id = c.report_id
       on conflict (project_id, report_id, period_end) where trigger = 'schedule' do nothing
       returning project_id, run_id`,
    [period.start, period.end, runs.map((r) => r.project_id), runs.map((r) => r.report_id), runs.map((r) => r.run_id)],
  );
  return rows;
}

/** A run and its report, dates as YYYY-MM-DD; undefined when the report (and its runs with it) was deleted. */
export async function storedRun(db: Pool, projectId: string, runId: string): Promise<StoredRun | undefined> {
  const { rows } = await db.query<StoredRun>(
    `select r.name, r.type, r.format, u.recipients, u.status,
            to_char(u.period_start, 'YYYY-MM-DD') as period_start, to_char(u.period_end, 'YYYY-MM-DD') as period_end
     from report_runs u join reports r on r.project_id = u.project_id and r.report_id = u.report_id
     where u.project_id = $1 and u.run_id = $2`,
    [projectId, runId],
  );
  return rows[0];
}

/** Marks a run's attempt started, counting it. */
export async function markRunRunning(db: Pool, projectId: string, runId: string): Promise<void> {
  await db.query(
    `update report_runs set status = 'running', attempts = attempts + 1, updated_at = now()
     where project_id = $1 and run_id = $2`,
    [projectId, runId],
  );
}

/** Marks a run sent, with the mail's message id. */
export async function markRunSent(db: Pool, projectId: string, runId: string, messageId: string | null): Promise<void> {
  await db.query(
    `update report_runs set status = 'sent', sent_at = now(), error = null, message_id = $3, updated_at = now()
     where project_id = $1 and run_id = $2`,
    [projectId, runId, messageId],
  );
}

/** Records an attempt's failure: `retrying`, or `failed` after the last attempt. */
export async function markRunFailed(
  db: Pool,
  projectId: string,
  runId: string,
  status: 'retrying' | 'failed',
  error: string,
): Promise<void> {
  await db.query(
    `update report_runs set status = $3, error = $4, updated_at = now() where project_id = $1 and run_id = $2`,
    [projectId, runId, status, error],
  );
}
