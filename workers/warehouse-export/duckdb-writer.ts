import fs from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DEFAULT_SCHEMA, projectDuckdbFile } from '../../domain/exports/credentials.js';
import { appendRows } from './duckdb-append.js';
import { createTableSql, quoteIdent } from './tables.js';
import type { WarehouseWriter, WriterTarget } from './writer.js';

/**
 * A DuckDB file inside the project's own folder of `dir`. DuckDB locks the file for its process:
 * an export to a file another process holds open (the project's own export in another worker)
 * fails with DuckDB's lock error, and is reported as such.
 */
export async function openDuckdbWriter(
  { projectId, exportId, credentials }: WriterTarget,
  dir: string,
): Promise<WarehouseWriter> {
  const resolved = projectDuckdbFile(dir, projectId, credentials.database);
  if (!('file' in resolved)) throw new Error(resolved.message);
  const schema = credentials.schema ?? DEFAULT_SCHEMA.duckdb;
  await fs.mkdir(path.dirname(resolved.file), { recursive: true });
  const instance = await DuckDBInstance.create(resolved.file);
  const connection = await instance.connect();
  let committed = false;
  const release = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    await connection.run('begin transaction');
    await connection.run(`create schema if not exists ${quoteIdent(schema)}`);
  } catch (err) {
    release();
    throw err;
  }
  return {
    async replace(table) {
      await connection.run(createTableSql(table, schema, 'duckdb'));
      await connection.run(`delete from ${quoteIdent(schema)}.${quoteIdent(table.target)} where project_id = $1`, [
        projectId,
      ]);
    },
    async append(table, rows) {
      await appendRows(connection, schema, table, { projectId, exportId }, rows);
    },
    async commit() {
      await connection.run('commit');
      committed = true;
    },
    async close() {
      if (!committed) await connection.run('rollback').catch(() => undefined);
      release();
    },
  };
}
