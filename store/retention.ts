import type { Retention } from '../domain/retention.js';
import type { Pool } from '../lib/db.js';

/** Rows deleted per statement: a first pass over a long history never holds locks for long. */
const CHUNK = 10_000;

/** A table whose aged rows the retention worker deletes: the setting that keeps them, and which rows are aged. */
export interface AgedRows {
  table: string;
  setting: keyof Retention;
  /** over the table's rows; $2 is the cutoff */
  where: string;
}

/**
 * What each project keeps, by table: the rows older than the project's cutoff go, a chunk at a
 * time. Pending deliveries and runs still to send stay whatever their age.
 */
export const AGED_ROWS: AgedRows[] = [
  { table: 'raw_events', setting: 'rawEventsDays', where: 'occurred_at < $2' },
  // webhook_attempts go with their delivery (on delete cascade).
  { table: 'webhook_deliveries', setting: 'webhookDeliveriesDays', where: "status <> 'pending' and created_at < $2" },
  { table: 'report_runs', setting: 'reportRunsDays', where: "status in ('sent', 'failed') and created_at < $2" },
  { table: 'friction_alerts', setting: 'alertsDays', where: 'created_at < $2' },
];

/** Deletes a project's rows of `aged` older than `before`, CHUNK rows per statement; returns how many went. */
export async function deleteAged(db: Pool, aged: AgedRows, projectId: string, before: Date): Promise<number> {
  const { table, where } = aged;
  let deleted = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `delete from ${table} where ctid = any (array(
         select ctid from ${table} where project_id = $1 and ${where} limit ${CHUNK}))`,
      [projectId, before],
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < CHUNK) return deleted;
  }
}
