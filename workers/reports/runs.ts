import { classify } from '../../lib/errors.js';
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
import {
  type StoredRun,
  insertScheduledRuns,
  markRunFailed,
  markRunRunning,
  markRunSent,
  reportsOfSchedule,
  storedRun,
} from '../../store/reports/report-runs.js';
import { type Schedule, periodBefore } from '../../domain/reports/schedule.js';

/**
 * The scheduler's tick for `schedule` due at `due`: one run per report of that schedule that
 * existed at `due`. A repeated or concurrent tick finds the period's runs there already
 * (report_runs_one_per_period) and queues nothing more. Returns how many runs it queued.
 */
export async function queueScheduledRuns(db: Pool, sender: PgBoss, schedule: Schedule, due: Date): Promise<number> {
  const period = periodBefore(schedule, due);
  return inTransaction(db, async (client) => {
    const reports = await reportsOfSchedule(client, schedule, due);
    const runs = await insertScheduledRuns(
      client,
      period,
      reports.map((r) => ({ ...r, run_id: newId('run') })),
    );
    for (const run of runs) await enqueueRun(client, sender, { project_id: run.project_id, run_id: run.run_id });
    return runs.length;
  });
}

/** A stored run as its report's type and format: schemas/report-create.json admits no others. */
type RunRow = StoredRun & { type: ReportType; format: ReportFormat };

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
  const { project_id: projectId, run_id: runId } = job;
  const run = (await storedRun(db, projectId, runId)) as RunRow | undefined;
  // The report was deleted (its runs with it), or a redelivered job finds the mail gone out.
  if (!run || run.status === 'sent') return;
  await markRunRunning(db, projectId, runId);
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
    await markRunSent(db, projectId, runId, info.messageId ?? null);
    log.info({ project: job.project_id, run: job.run_id, format: run.format }, 'report sent');
  } catch (err) {
    // A refusal the mail server says is permanent (5yz: no such mailbox) is the last attempt: the
    // same message would be refused again. Anything else is tried again, up to the limit.
    const { origin, retriable, code } = classify(err);
    const permanent = origin === 'mail' && !retriable;
    const last = permanent || attempt.retryCount >= attempt.retryLimit;
    await markRunFailed(
      db,
      projectId,
      runId,
      last ? 'failed' : 'retrying',
      err instanceof Error ? err.message : String(err),
    );
    log.warn({ err, code, project: job.project_id, run: job.run_id, last }, 'report run failed');
    // pg-boss retries a job that throws.
    if (!permanent) throw err;
  }
}
