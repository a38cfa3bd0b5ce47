import type { Pool } from '../lib/db.js';

/** warehouse_exports: the exports projects asked for (api/routes/exports.ts) and their runs (workers/warehouse-export). */

/** The DuckDB databases each project's exports name (a database may be several projects'). */
export async function duckdbDatabases(db: Pool): Promise<{ project_id: string; database: string }[]> {
  const { rows } = await db.query<{ project_id: string; database: string }>(
    `select distinct project_id, credentials->>'database' as database from warehouse_exports where destination = 'duckdb'`,
  );
  return rows;
}
