import type { DuckDBConnection } from '@duckdb/node-api';
import { type WarehouseTable, destinationColumns } from './tables.js';
import type { Cell } from './writer.js';

/**
 * Appends a batch of source rows (with the project and export ids in front) to `schema`.`table.target`
 * through DuckDB's Appender, which writes inside the connection's open transaction if there is one
 * (a rollback drops its rows). Numbers go in as doubles, the rest as text that DuckDB casts to the
 * column's type (timestamps with their offset, JSON, dates).
 */
export async function appendRows(
  connection: DuckDBConnection,
  schema: string,
  table: WarehouseTable,
  ids: { projectId: string; exportId: string },
  rows: Cell[][],
): Promise<void> {
  const appender = await connection.createAppender(table.target, schema);
  try {
    const kinds = destinationColumns(table).map((c) => c.kind);
    for (const row of rows) {
      appender.appendVarchar(ids.projectId);
      appender.appendVarchar(ids.exportId);
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
}
