import { withoutAddresses } from '../../domain/addresses.js';
import { type Pool, type PoolClient, inTransaction } from '../../lib/db.js';
import { PROJECT_LIMITS } from '../../domain/limits.js';
import { newId } from '../../lib/ids.js';
import { audit } from '../../store/audit-log.js';
import { jobSender } from '../../store/reports/queue.js';
import { ReportQueueUnavailable, enqueueRun } from '../../store/reports/runs.js';
import { type Schedule, nextDue, periodBefore } from '../../domain/reports/schedule.js';
import { ApiError, notFound, unavailable } from '../errors.js';
import { PAGING_PARAMS, pageFields, paging } from '../query.js';
import { pageOf } from '../../store/pages.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface ReportInput {
  name: string;
  type: string;
  schedule: Schedule;
  format?: string;
  recipients: string[];
}

interface ReportRow {
  report_id: string;
  name: string;
  type: string;
  schedule: Schedule;
  format: string;
  recipients: string[];
  created_at: Date;
}

interface RunRow {
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

/** Runs shown with a report, newest first. */
const RECENT_RUNS = 10;

const presentReport = (row: ReportRow, now: Date) => ({
  id: row.report_id,
  name: row.name,
  type: row.type,
  schedule: row.schedule,
  format: row.format,
  recipients: row.recipients,
  next_run_at: nextDue(row.schedule, now).toISOString(),
  created_at: row.created_at.toISOString(),
});

const presentRun = (run: RunRow) => ({
  id: run.run_id,
  trigger: run.trigger,
  status: run.status,
  period: { start: run.period_start, end: run.period_end },
  attempts: run.attempts,
  recipients: run.recipients,
  sent_at: run.sent_at?.toISOString() ?? null,
  // Mail failures name our SMTP server ("connect ECONNREFUSED 10.0.3.7:25"): not for tenants.
  error: run.error === null ? null : withoutAddresses(run.error),
  created_at: run.created_at.toISOString(),
});

const REPORT = `report_id, name, type, schedule, format, recipients, created_at`;

/**
 * Manual runs mail every recipient at once: a project may start PROJECT_LIMITS.manualReportRunsPerHour
 * of them in any hour (sliding). Runs of one project are counted in turns, so two requests cannot
 * both take the last one.
 */
async function throttleManualRuns(client: PoolClient, projectId: string): Promise<void> {
  const limit = PROJECT_LIMITS.manualReportRunsPerHour;
  await client.query(`select pg_advisory_xact_lock(hashtextextended('pi-manual-runs:' || $1, 0))`, [projectId]);
  const { rows } = await client.query<{ n: number; free_in_s: number | null }>(
    `select count(*)::int as n,
            ceil(extract(epoch from min(created_at) + interval '1 hour' - now()))::int as free_in_s
     from (select created_at from report_runs
           where project_id = $1 and trigger = 'manual' and created_at > now() - interval '1 hour'
           order by created_at desc limit $2) recent`,
    [projectId, limit],
  );
  if (rows[0]!.n < limit) return;
  const retryAfter = Math.max(1, rows[0]!.free_in_s ?? 1);
  throw new ApiError(
    429,
    'rate_limited',
    `The project started ${limit} manual report runs in the last hour; retry after ${retryAfter} s.`,
    { limit, retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

export function reportRoutes(db: Pool): Route[] {
  const sender = jobSender(db);
  const find = async (projectId: string, reportId: string) => {
    const { rows } = await db.query<ReportRow>(
      `select ${REPORT} from reports where project_id = $1 and report_id = $2`,
      [projectId, reportId],
    );
    if (!rows[0]) throw notFound('report');
    return rows[0];
  };
  return [
    defineRoute<ReportInput>({
      method: 'POST',
      path: '/analytics/reports',
      tag: 'Reports',
      summary: 'Schedule a report, mailed daily (06:00 UTC), weekly (Monday) or monthly (1st)',
      scope: 'admin',
      body: 'report-create.json',
      success: {
        status: 201,
        schema: 'Report',
        description: '{ id, name, type, schedule, format, recipients, next_run_at, created_at }',
      },
      async handle(ctx, input) {
        const { rows } = await db.query<ReportRow>(
          `insert into reports (project_id, report_id, name, type, schedule, format, recipients)
           values ($1, $2, $3, $4, $5, $6, $7) returning ${REPORT}`,
          [
            ctx.state.auth.projectId,
            newId('rep'),
            input.name,
            input.type,
            input.schedule,
            input.format ?? 'pdf',
            input.recipients,
          ],
        );
        const row = rows[0]!;
        await audit(db, ctx, 'report.created', row.report_id, { name: row.name, recipients: input.recipients });
        ctx.status = 201;
        ctx.set('Location', `${ctx.path}/${row.report_id}`);
        ctx.body = presentReport(row, new Date());
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/reports',
      tag: 'Reports',
      summary: 'List scheduled reports, newest first',
      scope: 'admin',
      query: PAGING_PARAMS,
      success: {
        status: 200,
        schema: 'ReportList',
        description: '{ reports, total, page_number, page, per_page, next }',
      },
      async handle(ctx) {
        const paged = paging(ctx);
        const { rows, total } = await pageOf<ReportRow>(
          db,
          { columns: REPORT, from: 'reports', where: 'project_id = $1', order: 'created_at desc, report_id' },
          [ctx.state.auth.projectId],
          paged,
        );
        const now = new Date();
        ctx.body = {
          reports: rows.map((row) => presentReport(row, now)),
          ...pageFields(paged, total),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/reports/:report_id',
      tag: 'Reports',
      summary: `A scheduled report with its next run time and its last ${RECENT_RUNS} runs`,
      scope: 'admin',
      success: {
        status: 200,
        schema: 'ReportDetail',
        description: '{ id, …, next_run_at, runs: [{ id, trigger, status, period, sent_at, error, … }] }',
      },
      errors: { 404: 'No such report in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const report = await find(projectId, pathParam(ctx, 'report_id'));
        const { rows: runs } = await db.query<RunRow>(
          `select run_id, trigger, status, to_char(period_start, 'YYYY-MM-DD') as period_start,
                  to_char(period_end, 'YYYY-MM-DD') as period_end, attempts, recipients, error, sent_at, created_at
           from report_runs where project_id = $1 and report_id = $2
           order by created_at desc, run_id limit $3`,
          [projectId, report.report_id, RECENT_RUNS],
        );
        ctx.body = { ...presentReport(report, new Date()), runs: runs.map(presentRun) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/analytics/reports/:report_id',
      tag: 'Reports',
      summary: 'Unschedule a report (its run history goes with it)',
      scope: 'admin',
      success: { status: 200, schema: 'Deleted', description: '{ id, deleted: true }' },
      errors: { 404: 'No such report in this project' },
      async handle(ctx) {
        const { rows } = await db.query<{ report_id: string }>(
          'delete from reports where project_id = $1 and report_id = $2 returning report_id',
          [ctx.state.auth.projectId, pathParam(ctx, 'report_id')],
        );
        if (!rows[0]) throw notFound('report');
        await audit(db, ctx, 'report.deleted', rows[0].report_id);
        ctx.body = { id: rows[0].report_id, deleted: true };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/analytics/reports/:report_id/run',
      tag: 'Reports',
      summary: 'Send a report now (covering its usual period); the run shows in GET /analytics/reports/{id}',
      scope: 'admin',
      success: { status: 202, schema: 'ReportRunQueued', description: '{ run_id, report_id, status: queued, period }' },
      errors: {
        404: 'No such report in this project',
        429: 'The project started its most manual runs for this hour (Retry-After)',
        503: 'The reports worker has never run here',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const reportId = pathParam(ctx, 'report_id');
        try {
          const run = await inTransaction(db, async (client) => {
            const { rows } = await client.query<ReportRow>(
              `select ${REPORT} from reports where project_id = $1 and report_id = $2 for share`,
              [projectId, reportId],
            );
            const report = rows[0];
            if (!report) throw notFound('report');
            await throttleManualRuns(client, projectId);
            const period = periodBefore(report.schedule, new Date());
            const runId = newId('run');
            await client.query(
              `insert into report_runs (project_id, report_id, run_id, trigger, period_start, period_end, recipients)
               values ($1, $2, $3, 'manual', $4, $5, $6)`,
              [projectId, reportId, runId, period.start, period.end, report.recipients],
            );
            await enqueueRun(client, sender, { project_id: projectId, run_id: runId });
            return { run_id: runId, report_id: reportId, status: 'queued', period };
          });
          ctx.status = 202;
          ctx.set('Location', `/v1/analytics/reports/${reportId}`);
          ctx.body = run;
        } catch (err) {
          if (err instanceof ReportQueueUnavailable)
            throw unavailable('Reports cannot be sent yet: the reports worker has never started.');
          throw err;
        }
      },
    }),
  ];
}
