import type { Transporter } from 'nodemailer';
import type PgBoss from 'pg-boss';
import { type Pool, inTransaction } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/log.js';
import { type ReportFormat, type ReportType, gatherReport } from './data.js';
import { reportMessage } from './message.js';
import type { RunJob } from '../../store/reports/queue.js';
import { renderReport } from './render.js';
import { enqueueRun } from '../../store/reports/runs.js';
import { type Schedule, periodBefore } from '../../domain/reports/schedule.js';

/**
 * The scheduler's tick for `schedule` due at `due`: one run per report of that schedule that
 * existed at `due`. A repeated or concurrent tick finds the period's runs there already
 * (report_runs_one_per_period) and queues nothing more. Returns how many runs it queued.
 */
export async function queueScheduledRuns(db: Pool, sender: PgBoss, schedule: Schedule, due: Date): Promise<number> {
  const period = periodBefore(schedule, due);
  return inTransaction(db, async (client) => {
    const { rows: reports } = await client.query<{ project_id: string; report_id: string }>(
      `select project_id, report_id from reports where schedule = $1 and created_at <= $2`,
      [schedule, due],
    );
    const { rows: runs } = await client.query<RunJob>(
      `insert into report_runs (project_id, report_id, run_id, trigger, period_start, period_end, recipients)
       select r.project_id, r.report_id, c.run_id, 'schedule', $1, $2, r.recipients
       from unnest($3::uuid[], $4::text[], $5::text[]) as c (project_id, report_id, run_id)
       join reports r on r.project_id = c.project_id and r.report_id = c.report_id
       on conflict (project_id, report_id, period_end) where trigger = 'schedule' do nothing
       returning project_id, run_id`,
      [
        period.start,
        period.end,
        reports.map((r) => r.project_id),
        reports.map((r) => r.report_id),
        reports.map(() => newId('run')),
      ],
    );
    for (const run of runs) await enqueueRun(client, sender, { project_id: run.project_id, run_id: run.run_id });
    return runs.length;
  });
}

interface RunRow {
  name: string;
  type: ReportType;
  format: ReportFormat;
  recipients: string[];
  period_start: string;
  period_end: string;
  status: string;
}

export interface RunContext {
  db: Pool;
  log: Logger;
  mailer: Transporter;
  mailFrom: string;
}

/**
 * One attempt at a run: gather, render, mail, record. A failure is recorded on the run
 * (`retrying`, or `failed` on the last attempt) and rethrown so pg-boss retries the job.
 */
export async function executeRun(
  ctx: RunContext,
  job: RunJob,
  attempt: { retryCount: number; retryLimit: number },
): Promise<void> {
  const { db, log } = ctx;
  const key = [job.project_id, job.run_id];
  const { rows } = await db.query<RunRow>(
    `select r.name, r.type, r.format, u.recipients, u.status,
            to_char(u.period_start, 'YYYY-MM-DD') as period_start, to_char(u.period_end, 'YYYY-MM-DD') as period_end
     from report_runs u join reports r on r.project_id = u.project_id and r.report_id = u.report_id
     where u.project_id = $1 and u.run_id = $2`,
    key,
  );
  const run = rows[0];
  // The report was deleted (its runs with it), or a redelivered job finds the mail gone out.
  if (!run || run.status === 'sent') return;
  await db.query(
    `update report_runs set status = 'running', attempts = attempts + 1, updated_at = now()
     where project_id = $1 and run_id = $2`,
    key,
  );
  try {
    const content = await gatherReport(
      db,
      job.project_id,
      { name: run.name, type: run.type },
      { start: run.period_start, end: run.period_end },
      new Date(),
    );
    const rendered = await renderReport(content, run.format);
    const info = (await ctx.mailer.sendMail(reportMessage(content, rendered, ctx.mailFrom, run.recipients))) as {
      messageId?: string;
    };
    await db.query(
      `update report_runs set status = 'sent', sent_at = now(), error = null, message_id = $3, updated_at = now()
       where project_id = $1 and run_id = $2`,
      [...key, info.messageId ?? null],
    );
    log.info({ project: job.project_id, run: job.run_id, format: run.format }, 'report sent');
  } catch (err) {
    const last = attempt.retryCount >= attempt.retryLimit;
    await db.query(
      `update report_runs set status = $3, error = $4, updated_at = now() where project_id = $1 and run_id = $2`,
      [...key, last ? 'failed' : 'retrying', err instanceof Error ? err.message : String(err)],
    );
    log.warn({ err, project: job.project_id, run: job.run_id, last }, 'report run failed');
    throw err;
  }
}
