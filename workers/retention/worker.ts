import fs from 'node:fs';
import path from 'node:path';
import { type Retention, cutoff, retention } from '../../domain/retention.js';
import { duckdbFile } from '../../domain/exports/credentials.js';
import type { Pool } from '../../lib/db.js';
import { periodicWorker } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';
import { purgeDone, purgeRequests } from '../../store/export-file-purges.js';
import { projectRetentions } from '../../store/projects.js';
import { AGED_ROWS, deleteAged } from '../../store/retention.js';
import { duckdbDatabases } from '../../store/warehouse-exports.js';

/** How often the retention worker looks: retention is in days, an hour late is nothing. */
export const RETENTION_INTERVAL_MS = 60 * 60_000;

/** Files under `dir` last written before `before`, deleted; folders left empty go too. */
function deleteOldFiles(dir: string, before: Date): number {
  if (!fs.existsSync(dir)) return 0;
  let deleted = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      deleted += deleteOldFiles(full, before);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
    } else if (fs.statSync(full).mtime < before) {
      fs.rmSync(full, { force: true });
      deleted++;
    }
  }
  return deleted;
}

/** The DuckDB files each project's exports named (the folder is shared: a file may be several projects'). */
async function duckdbFilesByProject(db: Pool, dir: string): Promise<{ projectId: string; file: string }[]> {
  const rows = await duckdbDatabases(db);
  return rows.flatMap((row) => {
    const resolved = duckdbFile(dir, row.database);
    return 'file' in resolved ? [{ projectId: row.project_id, file: resolved.file }] : [];
  });
}

/** Deletes the DuckDB file (and the write-ahead log DuckDB keeps beside it) if last written before `before`. */
function deleteDuckdbFileOlder(file: string, before: Date): number {
  let deleted = 0;
  for (const part of [file, `${file}.wal`]) {
    if (fs.existsSync(part) && fs.statSync(part).mtime < before) {
      fs.rmSync(part, { force: true });
      deleted++;
    }
  }
  return deleted;
}

/**
 * DuckDB files: a file belongs to every project that exported into it, so it is deleted once it
 * was last written longer ago than the longest retention among them. Files no export names are
 * not the service's to delete.
 */
async function deleteOldDuckdbFiles(db: Pool, dir: string, keep: Map<string, Retention>, now: Date): Promise<number> {
  const days = new Map<string, number>();
  for (const { projectId, file } of await duckdbFilesByProject(db, dir)) {
    const own = (keep.get(projectId) ?? retention({})).exportFilesDays;
    days.set(file, Math.max(days.get(file) ?? 0, own));
  }
  let deleted = 0;
  for (const [file, kept] of days) deleted += deleteDuckdbFileOlder(file, cutoff(now, kept));
  return deleted;
}

/**
 * Erasures (store/user-data.ts) ask for the project's export files written before them to go:
 * they may hold the erased user. Its Parquet files and every DuckDB file it exported into are
 * deleted (other projects' copies in a shared DuckDB file too: an export writes them again).
 */
async function purgeForErasures(db: Pool, config: Services['config']): Promise<number> {
  const rows = await purgeRequests(db);
  if (rows.length === 0) return 0;
  const duckdb = await duckdbFilesByProject(db, config.duckdbDir);
  let deleted = 0;
  for (const { project_id: projectId, requested_at: before, stamp } of rows) {
    deleted += deleteOldFiles(path.join(path.resolve(config.parquetDir), projectId), before);
    for (const d of duckdb.filter((f) => f.projectId === projectId)) deleted += deleteDuckdbFileOlder(d.file, before);
    await purgeDone(db, projectId, stamp);
  }
  return deleted;
}

/** One pass over every project; returns what it deleted per kind. */
export async function runRetentionPass(services: Services, now = new Date()): Promise<Record<string, number>> {
  const { db, config } = services;
  const rows = await projectRetentions(db);
  const keep = new Map(rows.map((r) => [r.project_id, retention(r.retention)]));
  const deleted: Record<string, number> = { files: 0 };
  for (const { table } of AGED_ROWS) deleted[table] = 0;
  for (const [projectId, kept] of keep) {
    for (const aged of AGED_ROWS) {
      deleted[aged.table]! += await deleteAged(db, aged, projectId, cutoff(now, kept[aged.setting]));
    }
    // Parquet files live in the project's own folder.
    deleted.files! += deleteOldFiles(
      path.join(path.resolve(config.parquetDir), projectId),
      cutoff(now, kept.exportFilesDays),
    );
  }
  deleted.files! += await deleteOldDuckdbFiles(db, config.duckdbDir, keep, now);
  deleted.files! += await purgeForErasures(db, config);
  return deleted;
}

/** Runs a pass at start and every RETENTION_INTERVAL_MS. */
export function startRetentionWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'retention' });
  return periodicWorker(
    async () => {
      const deleted = await runRetentionPass(services);
      if (Object.values(deleted).some((n) => n > 0)) log.info({ deleted }, 'retention pass deleted aged data');
    },
    RETENTION_INTERVAL_MS,
    log,
  );
}
