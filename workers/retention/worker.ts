import fs from 'node:fs';
import path from 'node:path';
import { cutoff, retention } from '../../domain/retention.js';
import { projectFolder } from '../../domain/exports/credentials.js';
import type { Pool } from '../../lib/db.js';
import { periodicWorker } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';
import { purgeDone, purgeRequests } from '../../store/export-file-purges.js';
import { projectRetentions } from '../../store/projects.js';
import { AGED_ROWS, deleteAged } from '../../store/retention.js';

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

/**
 * Erasures (store/user-data.ts) ask for the project's export files written before them to go:
 * they may hold the erased user. Its Parquet and DuckDB files, each in the project's own folder
 * (docs/adr/0084-tenant-isolated-exports.md), are deleted.
 */
async function purgeForErasures(db: Pool, config: Services['config']): Promise<number> {
  const rows = await purgeRequests(db);
  if (rows.length === 0) return 0;
  let deleted = 0;
  for (const { project_id: projectId, requested_at: before, stamp } of rows) {
    for (const dir of [config.parquetDir, config.duckdbDir])
      deleted += deleteOldFiles(projectFolder(dir, projectId), before);
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
    // Parquet and DuckDB files live in the project's own folders.
    for (const dir of [config.parquetDir, config.duckdbDir]) {
      deleted.files! += deleteOldFiles(projectFolder(dir, projectId), cutoff(now, kept.exportFilesDays));
    }
  }
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
