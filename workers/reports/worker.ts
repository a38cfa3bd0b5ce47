import nodemailer from 'nodemailer';
import PgBoss from 'pg-boss';
import { PGBOSS_SCHEMA, RUN_QUEUE, RUN_RETRY, type RunJob, bossDb, tickQueue } from '../../store/reports/queue.js';
import { SCHEDULES, SCHEDULE_CRON, lastDue } from '../../domain/reports/schedule.js';
import type { Services } from '../../lib/services.js';
import { executeRun, queueScheduledRuns } from './runs.js';

export interface ReportWorkerOptions {
  /** Overrides of the run queue's retry policy (tests shrink the delay). */
  retry?: Partial<typeof RUN_RETRY>;
}

/**
 * The reports worker: installs or migrates pg-boss's schema (pg-boss serialises that under an
 * advisory lock), registers the three cron ticks (an upsert by queue name: any number of
 * starts and processes keep one schedule each), and works the tick and run queues. pg-boss
 * fires a cron schedule once per minute slot across all processes; a missed tick (no worker
 * running at 06:00) is caught up at the next start.
 */
export async function startReportWorker(
  services: Services,
  options: ReportWorkerOptions = {},
): Promise<{ stop(): Promise<void> }> {
  const { db, log, config } = services;
  const boss = new PgBoss({ db: bossDb(db), schema: PGBOSS_SCHEMA });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();

  const retry = { ...RUN_RETRY, ...options.retry };
  await boss.createQueue(RUN_QUEUE, { name: RUN_QUEUE, ...retry });
  // createQueue keeps an existing queue as it was; a changed policy is applied here.
  await boss.updateQueue(RUN_QUEUE, { name: RUN_QUEUE, ...retry });
  for (const schedule of SCHEDULES) {
    await boss.createQueue(tickQueue(schedule), { name: tickQueue(schedule), ...RUN_RETRY });
    await boss.schedule(tickQueue(schedule), SCHEDULE_CRON[schedule], {}, { tz: 'UTC' });
  }

  const mailer = nodemailer.createTransport(config.smtpUrl);
  const polling = {
    pollingIntervalSeconds: Math.max(0.5, config.pollIntervalMs / 1000),
    includeMetadata: true as const,
  };
  for (const schedule of SCHEDULES) {
    await boss.work(tickQueue(schedule), { ...polling, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) {
        // A tick covers the period of the sending time it belongs to, however late it is worked.
        const due = lastDue(schedule, job.createdOn);
        const queued = await queueScheduledRuns(db, boss, schedule, due);
        log.info({ schedule, due, queued }, 'scheduled report runs queued');
      }
    });
    await boss.send(tickQueue(schedule), {});
  }
  const context = { db, log, mailer, mailFrom: config.mailFrom };
  await boss.work<RunJob>(RUN_QUEUE, { ...polling, batchSize: 1 }, async (jobs) => {
    for (const job of jobs) await executeRun(context, job.data, job);
  });

  return {
    async stop() {
      // Graceful: waits for the jobs in hand; ours is the pool, pg-boss does not close it.
      await boss.stop({ graceful: true, wait: true });
      mailer.close();
    },
  };
}
