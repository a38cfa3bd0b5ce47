import fs from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { parquetFolder } from '../../domain/exports/credentials.js';
import { appendRows } from './duckdb-append.js';
import { type ColumnKind, type WarehouseTable, columnType, destinationColumns, quoteIdent } from './tables.js';
import type { WarehouseWriter, WriterTarget } from './writer.js';

/**
 * DuckDB's memory for staging and writing; beyond it DuckDB spills to the staging folder. A
 * partitioned write of 3M events over 244 days peaked at a process RSS of 270 MB with 128 MB, 580 MB with 512 MB.
 */
const DUCKDB_MEMORY_LIMIT = '256MB';
/** A table without days is split into files of about this size. */
const FILE_SIZE = '256MB';
/** Under PARQUET_DIR, beside the project folders (ids, never this name), so renames stay on one filesystem. */
const STAGING_FOLDER = '.staging';

/**
 * The day a table is partitioned by, as a DuckDB expression: the UTC day whatever the server's
 * time zone (a TIMESTAMPTZ cast to DATE follows DuckDB's TimeZone, which follows TZ). Tables not
 * listed are written as one folder of files.
 */
const PARTITION_DAY: Partial<Record<string, string>> = {
  events: `timezone('UTC', "occurred_at")::date`,
  features: `"day"`,
};

// Types any Parquet reader knows: ids and JSON as strings (UUID and JSON annotations trip some readers).
const parquetType = (kind: ColumnKind) => (kind === 'uuid' || kind === 'json' ? 'VARCHAR' : columnType(kind, 'duckdb'));

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The COPY that writes a staged table as Parquet files into the folder `to`. */
export function copySql(table: WarehouseTable, to: string): string {
  const day = PARTITION_DAY[table.name];
  const columns = destinationColumns(table)
    .filter((c) => day === undefined || c.name !== 'day')
    .map((c) => quoteIdent(c.name));
  if (day !== undefined) columns.push(`${day} as "day"`);
  const options = ['format parquet', 'compression snappy', `filename_pattern 'part-{i}'`];
  // DuckDB does not split partitions by size: one file per day (more when it has many days open at once).
  options.push(day === undefined ? `file_size_bytes '${FILE_SIZE}'` : 'partition_by ("day")');
  return `copy (select ${columns.join(', ')} from ${quoteIdent(table.target)}) to ${quoteLiteral(to)} (${options.join(', ')})`;
}

/**
 * Puts the folder `from` where `to` is. Readers of `to` see the old files or the new ones (or, in
 * between the two renames, none), never a part of either. Another export of the same folder may
 * swap its own in between: then the last one wins.
 */
export async function swapFolder(from: string, to: string, aside: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    const old = `${aside}-${attempt}`;
    await fs.rename(to, old).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    try {
      await fs.rename(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code === 'ENOTEMPTY' || code === 'EEXIST') && attempt < 3) continue;
      // The old files are in the staging folder, which is deleted next: put them back first.
      await fs.rename(old, to).catch(() => undefined);
      throw err;
    }
  }
}

/**
 * Parquet files under `<dir>/<project id>/<credentials.database>/<table>/`, Hive-partitioned by
 * day where the table has one. Rows are staged in a DuckDB file (memory stays bounded whatever the
 * table's size), written as Parquet by `commit`, then each table's folder is swapped in by rename.
 * Until then the previous files are untouched; `close` removes the staging folder.
 */
export async function openParquetWriter(
  { projectId, exportId, credentials }: WriterTarget,
  dir: string,
): Promise<WarehouseWriter> {
  const resolved = parquetFolder(dir, projectId, credentials.database);
  if (!('folder' in resolved)) throw new Error(resolved.message);
  const staging = path.join(path.resolve(dir), STAGING_FOLDER, exportId);
  // A run of this export that died half-way left its staging folder behind: start from nothing.
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(path.join(staging, 'tables'), { recursive: true });
  let instance: DuckDBInstance | undefined;
  let connection: DuckDBConnection | undefined;
  const release = () => {
    connection?.closeSync();
    instance?.closeSync();
    connection = instance = undefined;
  };
  try {
    instance = await DuckDBInstance.create(path.join(staging, 'stage.duckdb'), {
      memory_limit: DUCKDB_MEMORY_LIMIT,
      temp_directory: path.join(staging, 'spill'),
      // Row order means nothing in these files, and keeping it costs memory in large writes.
      preserve_insertion_order: 'false',
    });
    connection = await instance.connect();
  } catch (err) {
    release();
    await fs.rm(staging, { recursive: true, force: true });
    throw err;
  }
  const open = () => {
    if (!connection) throw new Error('the Parquet writer is closed');
    return connection;
  };
  const staged: WarehouseTable[] = [];
  return {
    async replace(table) {
      const columns = destinationColumns(table).map((c) => `${quoteIdent(c.name)} ${parquetType(c.kind)}`);
      await open().run(`create or replace table ${quoteIdent(table.target)} (${columns.join(', ')})`);
      staged.push(table);
    },
    async append(table, rows) {
      await appendRows(open(), 'main', table, { projectId, exportId }, rows);
    },
    async commit() {
      // Every table is written before any is swapped in: a failed write replaces nothing.
      for (const table of staged) {
        await open().run(copySql(table, path.join(staging, 'tables', table.name)));
        // A day-partitioned table without rows has no files: its folder is empty, and still replaces the old one.
        await fs.mkdir(path.join(staging, 'tables', table.name), { recursive: true });
        await open().run(`drop table ${quoteIdent(table.target)}`);
      }
      release();
      for (const table of staged) {
        await swapFolder(
          path.join(staging, 'tables', table.name),
          path.join(resolved.folder, table.name),
          path.join(staging, `old-${table.name}`),
        );
      }
    },
    async close() {
      release();
      await fs.rm(staging, { recursive: true, force: true });
    },
  };
}
