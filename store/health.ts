import type { Pool } from '../lib/db.js';

/** Runs the health probe's trivial statement: Postgres answers a query (api/health.ts times it). */
export async function pingPostgres(db: Pool): Promise<void> {
  await db.query('select 1');
}
