import type { WarehouseCredentials, WarehouseDestination } from '../domain/exports/credentials.js';
import type { Pool, PoolClient } from '../lib/db.js';

/**
 * warehouse_exports: the exports projects asked for (api/routes/exports.ts), claimed, kept alive and
 * finished by the warehouse export runners (workers/warehouse-export/worker.ts), and the snapshot of
 * our tables an export copies from.
 */

/** An export as a runner claims it; `tables` are names the API admitted (workers/warehouse-export/tables.ts). */
export interface StoredExport {
  project_id: string;
  export_id: string;
  destination: WarehouseDestination;
  credentials: WarehouseCredentials;
  tables: string[];
}

// Claims of every worker take turns, so the "nothing of this project running" they check holds until commit.
const CLAIM_LOCK = 'pi-warehouse-export-claim';

/** Waits for this transaction's turn to claim (held to commit). */
export async function takeExportClaimTurn(client: PoolClient): Promise<void> {
  await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [CLAIM_LOCK]);
}

/**
 * Marks running the next export to run, if any: queued, or running with a heartbeat older than
 * `staleAfter` (an interval), of a project with no export running; the project whose last export
 * started longest ago (never first) goes first, the oldest of its queue.
 */
export async function claimNextExport(client: PoolClient, staleAfter: string): Promise<StoredExport | undefined> {
  const { rows } = await client.query<StoredExport>(
    `update warehouse_exports w
       set status = 'running', started_at = now(), heartbeat_at = now(), finished_at = null, error = null,
           row_counts = '{}'::jsonb
       where (w.project_id, w.export_id) = (
         select project_id, export_id from warehouse_exports q
         where (status = 'queued' or (status = 'running' and heartbeat_at < now() - $1::interval))
           and not exists (select 1 from warehouse_exports r
                           where r.project_id = q.project_id and r.status = 'running'
                             and r.heartbeat_at >= now() - $1::interval)
         order by (select max(started_at) from warehouse_exports s where s.project_id = q.project_id) nulls first,
                  created_at
         limit 1
         for update skip locked)
       returning w.project_id, w.export_id, w.destination, w.credentials, w.tables`,
    [staleAfter],
  );
  return rows[0];
}

/** The running export's heartbeat: a runner that stops beating is taken over after the stale time. */
export async function exportHeartbeat(db: Pool, projectId: string, exportId: string): Promise<void> {
  await db.query('update warehouse_exports set heartbeat_at = now() where project_id = $1 and export_id = $2', [
    projectId,
    exportId,
  ]);
}

/**
 * Records how the export ended (its row counts, or its error, already bounded) and wipes its
 * password however it ended: a finished export is never run again.
 */
export async function finishExport(
  db: Pool,
  projectId: string,
  exportId: string,
  outcome: { status: 'succeeded'; counts: Record<string, number> } | { status: 'failed'; error: string },
): Promise<void> {
  await db.query(
    `update warehouse_exports set status = $3, finished_at = now(), row_counts = $4, error = $5,
       credentials = credentials - 'password'
     where project_id = $1 and export_id = $2`,
    [
      projectId,
      exportId,
      outcome.status,
      outcome.status === 'succeeded' ? outcome.counts : {},
      outcome.status === 'failed' ? outcome.error : null,
    ],
  );
}

/**
 * Runs `copy` on a connection of its own in one read-only repeatable-read transaction, so every
 * table it reads comes from one snapshot and agrees with the others. After a failure the
 * connection may be mid-cursor or dead: it is dropped, not pooled.
 */
export async function inExportSnapshot<T>(db: Pool, copy: (source: PoolClient) => Promise<T>): Promise<T> {
  const source = await db.connect();
  let failed = true;
  try {
    await source.query('begin isolation level repeatable read read only');
    const result = await copy(source);
    await source.query('commit');
    failed = false;
    return result;
  } catch (err) {
    await source.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    source.release(failed);
  }
}

/** A warehouse export as the API shows it (never its credentials). */
export interface ExportRow {
  export_id: string;
  destination: string;
  tables: string[];
  status: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  row_counts: Record<string, number>;
  error: string | null;
}

const EXPORT_COLUMNS = 'export_id, destination, tables, status, created_at, started_at, finished_at, row_counts, error';

/** Inserts an export, queued (its credentials' password sealed by the caller). */
export async function queueExport(
  db: Pool,
  row: {
    projectId: string;
    exportId: string;
    destination: string;
    credentials: WarehouseCredentials;
    tables: string[];
  },
): Promise<ExportRow> {
  const { rows } = await db.query<ExportRow>(
    `insert into warehouse_exports (project_id, export_id, destination, credentials, tables)
     values ($1, $2, $3, $4, $5) returning ${EXPORT_COLUMNS}`,
    [row.projectId, row.exportId, row.destination, row.credentials, row.tables],
  );
  return rows[0]!;
}

/** Reads one export. */
export async function exportById(db: Pool, projectId: string, exportId: string): Promise<ExportRow | undefined> {
  const { rows } = await db.query<ExportRow>(
    `select ${EXPORT_COLUMNS} from warehouse_exports where project_id = $1 and export_id = $2`,
    [projectId, exportId],
  );
  return rows[0];
}
