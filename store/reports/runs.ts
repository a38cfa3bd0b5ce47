import type PgBoss from 'pg-boss';
import { type Queryable, RUN_QUEUE, type RunJob, bossDb } from './queue.js';

/** pg-boss is not installed yet, or has no run queue: no reports worker has ever started. */
export class ReportQueueUnavailable extends Error {
  constructor() {
    super('the report queue does not exist yet: start the reports worker once');
  }
}

// undefined_table, invalid_schema_name: pg-boss's schema is not there.
const MISSING = new Set(['42P01', '3F000']);

/**
 * Queues the job of a run through `client`, so the job exists exactly when the transaction that
 * recorded the run commits.
 */
export async function enqueueRun(client: Queryable, sender: PgBoss, job: RunJob): Promise<string> {
  let id: string | null;
  try {
    id = await sender.send(RUN_QUEUE, job, { db: bossDb(client) });
  } catch (err) {
    if (MISSING.has((err as { code?: string }).code ?? '')) throw new ReportQueueUnavailable();
    throw err;
  }
  // pg-boss inserts nothing (and answers null) for a queue that does not exist.
  if (!id) throw new ReportQueueUnavailable();
  return id;
}
