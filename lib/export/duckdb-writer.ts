import fs from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DEFAULT_SCHEMA, duckdbFile } from './credentials.js';
import { createTableSql, destinationColumns, quoteIdent } from './warehouse-tables.js';
import type { WarehouseWriter, WriterTarget } from './writer.js';

/**
 * A DuckDB file inside `dir`. DuckDB locks the file for its process: an export to a file another
 * process holds open fails with DuckDB's lock error (and is reported as such).
 */
export async function openDuckdbWriter(
  { projectId, exportId, credentials }: WriterTarget,
  dir: string,
): Promise<WarehouseWriter> {
  const resolved = duckdbFile(dir, credentials.database);
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
      // The appender writes inside the connection's open transaction (a rollback drops its rows).
      const appender = await connection.createAppender(table.target, schema);
      try {
        const kinds = destinationColumns(table).map((c) => c.kind);
        for (const row of rows) {
          appender.appendVarchar(projectId);
          appender.appendVarchar(exportId);
          row.forEach((value, i) => {
            const kind = kinds[i + 2];
            if (value === null) appender.appendNull();
            else if (kind === 'bigint' || kind === 'double') appender.appendDouble(Number(value));
            else appender.appendVarchar(typeof value === 'string' ? value : String(value));
          });
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
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
