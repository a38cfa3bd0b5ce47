import { withoutAddresses } from '../../domain/addresses.js';
import { type Pool, type PoolClient, inTransaction } from '../../lib/db.js';
import { PROJECT_LIMITS } from '../../domain/limits.js';
import { newId } from '../../lib/ids.js';
import { audit } from '../../store/audit-log.js';
import { jobSender } from '../../store/reports/queue.js';
import {
  type ReportRow,
  type RunRow,
  deleteReport,
  insertManualRun,
  insertReport,
  recentManualRuns,
  recentRuns,
  reportById,
  reportPage,
  shareReport,
  takeManualRunTurn,
} from '../../store/reports/reports.js';
import { ReportQueueUnavailable, enqueueRun } from '../../store/reports/runs.js';
import { type Schedule, nextDue, periodBefore } from '../../domain/reports/schedule.js';
import { ApiError, notFound, unavailable } from '../errors.js';
import { PAGING_PARAMS, pageFields, paging } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface ReportInput {
  name: string;
  type: string;
  schedule: Schedule;
  format?: string;
  recipients: string[];
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

/**
 * Manual runs mail every recipient at once: a project may start PROJECT_LIMITS.manualReportRunsPerHour
 * of them in any hour (sliding). Runs of one project are counted in turns, so two requests cannot
 * both take the last one.
 */
async function throttleManualRuns(client: PoolClient, projectId: string): Promise<void> {
  const limit = PROJECT_LIMITS.manualReportRunsPerHour;
  await takeManualRunTurn(client, projectId);
  const recent = await recentManualRuns(client, projectId, limit);
  if (recent.n < limit) return;
  const retryAfter = Math.max(1, recent.free_in_s ?? 1);
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
    const row = await reportById(db, projectId, reportId);
    if (!row) throw notFound('report');
    return row;
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
        const row = await insertReport(db, {
          projectId: ctx.state.auth.projectId,
          reportId: newId('rep'),
          name: input.name,
          type: input.type,
          schedule: input.schedule,
          format: input.format ?? 'pdf',
          recipients: input.recipients,
        });
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
        const { rows, total } = await reportPage(db, ctx.state.auth.projectId, paged);
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
        const runs = await recentRuns(db, projectId, report.report_id, RECENT_RUNS);
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
        const reportId = pathParam(ctx, 'report_id');
        if (!(await deleteReport(db, ctx.state.auth.projectId, reportId))) throw notFound('report');
        await audit(db, ctx, 'report.deleted', reportId);
        ctx.body = { id: reportId, deleted: true };
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
            const report = await shareReport(client, projectId, reportId);
            if (!report) throw notFound('report');
            await throttleManualRuns(client, projectId);
            const period = periodBefore(report.schedule, new Date());
            const runId = newId('run');
            await insertManualRun(client, {
              projectId,
              reportId,
              runId,
              start: period.start,
              end: period.end,
              recipients: report.recipients,
            });
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
