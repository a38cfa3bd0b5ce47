import PgBoss from 'pg-boss';
import type { Schedule } from '../../domain/reports/schedule.js';

/**
 * The pg-boss queues of scheduled reports. pg-boss keeps its tables in its own schema of the
 * service's database (installed and migrated by the reports worker at start).
 */
export const PGBOSS_SCHEMA = 'pgboss';

/** One job per report run; data: RunJob. */
export const RUN_QUEUE = 'report-run';

/** pg-boss v10 keys a cron schedule by its queue: one tick queue per schedule. */
export const tickQueue = (schedule: Schedule) => `report-tick-${schedule}`;

export interface RunJob {
  project_id: string;
  run_id: string;
}

/**
 * Retries of a failed run (SMTP down, a recipient refused, a database error): 4 more attempts,
 * pg-boss's exponential backoff with jitter from 60 s (≈ 1–2, 2–4, 4–8, 8–16 min).
 */
export const RUN_RETRY = { retryLimit: 4, retryDelay: 60, retryBackoff: true };

/** Anything with pg's `query` (a pool or a client inside a transaction). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss's database hook over our own pool or client, so its statements join our transactions. */
export const bossDb = (db: Queryable): PgBoss.Db => ({
  executeSql: async (text, values) => ({ rows: (await db.query(text, values)).rows }),
});

/**
 * A pg-boss handle that only sends jobs (no maintenance, no cron, no install): what the API
 * needs to queue a run inside its own transaction.
 */
export function jobSender(db: Queryable): PgBoss {
  return new PgBoss({
    db: bossDb(db),
    schema: PGBOSS_SCHEMA,
    schedule: false,
    supervise: false,
    migrate: false,
  });
}
