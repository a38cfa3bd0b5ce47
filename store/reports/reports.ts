import type { Pool, PoolClient } from '../../lib/db.js';
import type { Schedule } from '../../domain/reports/schedule.js';
import { type PageWindow, pageOf } from '../pages.js';

/** reports and their report_runs as the admin API keeps and shows them (api/routes/reports.ts). */

export interface ReportRow {
  report_id: string;
  name: string;
  type: string;
  schedule: Schedule;
  format: string;
  recipients: string[];
  created_at: Date;
}

/** A run as a report's page shows it (periods as dates). */
export interface RunRow {
  run_id: string;
  trigger: string;
  status: string;
  period_start: string;
  period_end: string;
  attempts: number;
  recipients: string[];
  error: string | null;
  sent_at: Date | null;
  created_at: Date;
}

const REPORT = `report_id, name, type, schedule, format, recipients, created_at`;

/** Reads one report. */
export async function reportById(db: Pool, projectId: string, reportId: string): Promise<ReportRow | undefined> {
  const { rows } = await db.query<ReportRow>(`select ${REPORT} from reports where project_id = $1 and report_id = $2`, [
    projectId,
    reportId,
  ]);
  return rows[0];
}

/** Inserts a report. */
export async function insertReport(
  db: Pool,
  row: {
    projectId: string;
    reportId: string;
    name: string;
    type: string;
    schedule: Schedule;
    format: string;
    recipients: string[];
  },
): Promise<ReportRow> {
  const { rows } = await db.query<ReportRow>(
    `insert into reports (project_id, report_id, name, type, schedule, format, recipients)
     values ($1, $2, $3, $4, $5, $6, $7) returning ${REPORT}`,
    [row.projectId, row.reportId, row.name, row.type, row.schedule, row.format, row.recipients],
  );
  return rows[0]!;
}

/** Reads a page of a project's reports, newest first, and their total. */
export async function reportPage(db: Pool, projectId: string, page: PageWindow) {
  return pageOf<ReportRow>(
    db,
    { columns: REPORT, from: 'reports', where: 'project_id = $1', order: 'created_at desc, report_id' },
    [projectId],
    page,
  );
}

/** Reads a report's `limit` newest runs. */
export async function recentRuns(db: Pool, projectId: string, reportId: string, limit: number): Promise<RunRow[]> {
  const { rows } = await db.query<RunRow>(
    `select run_id, trigger, status, to_char(period_start, 'YYYY-MM-DD') as period_start,
            to_char(period_end, 'YYYY-MM-DD') as period_end, attempts, recipients, error, sent_at, created_at
     from report_runs where project_id = $1 and report_id = $2
     order by created_at desc, run_id limit $3`,
    [projectId, reportId, limit],
  );
  return rows;
}

/** Deletes a report (its runs go with it); whether it existed. */
export async function deleteReport(db: Pool, projectId: string, reportId: string): Promise<boolean> {
  const { rows } = await db.query<{ report_id: string }>(
    'delete from reports where project_id = $1 and report_id = $2 returning report_id',
    [projectId, reportId],
  );
  return rows.length > 0;
}

/** Reads a report and holds it (for share, to commit) while a run of it is queued. */
export async function shareReport(
  client: PoolClient,
  projectId: string,
  reportId: string,
): Promise<ReportRow | undefined> {
  const { rows } = await client.query<ReportRow>(
    `select ${REPORT} from reports where project_id = $1 and report_id = $2 for share`,
    [projectId, reportId],
  );
  return rows[0];
}

/** Waits for the project's turn to count its manual runs (an advisory lock held to commit). */
export async function takeManualRunTurn(client: PoolClient, projectId: string): Promise<void> {
  await client.query(`select pg_advisory_xact_lock(hashtextextended('pi-manual-runs:' || $1, 0))`, [projectId]);
}

/**
 * Counts the project's manual runs of the last hour, up to `limit`, and reads in how many seconds
 * the oldest of those leaves the hour.
 */
export async function recentManualRuns(
  client: PoolClient,
  projectId: string,
  limit: number,
): Promise<{ n: number; free_in_s: number | null }> {
  const { rows } = await client.query<{ n: number; free_in_s: number | null }>(
    `select count(*)::int as n,
            ceil(extract(epoch from min(created_at) + interval '1 hour' - now()))::int as free_in_s
     from (select created_at from report_runs
           where project_id = $1 and trigger = 'manual' and created_at > now() - interval '1 hour'
           order by created_at desc limit $2) recent`,
    [projectId, limit],
  );
  return rows[0]!;
}

/** Inserts a manual run of a report for a period. */
export async function insertManualRun(
  client: PoolClient,
  run: { projectId: string; reportId: string; runId: string; start: string; end: string; recipients: string[] },
): Promise<void> {
  await client.query(
    `insert into report_runs (project_id, report_id, run_id, trigger, period_start, period_end, recipients)
     values ($1, $2, $3, 'manual', $4, $5, $6)`,
    [run.projectId, run.reportId, run.runId, run.start, run.end, run.recipients],
  );
}
