import type { TargetPolicy } from '../../lib/targets.js';
import type { WarehouseCredentials, WarehouseDestination } from '../../domain/exports/credentials.js';
import { openDuckdbWriter } from './duckdb-writer.js';
import { openParquetWriter } from './parquet-writer.js';
import { openPostgresWriter } from './postgres-writer.js';
import type { WarehouseTable } from './tables.js';

/**
 * A destination in one transaction: `replace` creates the table if missing and deletes the
 * project's rows, `append` adds a batch, `commit` makes it all visible at once. `close` without a
 * commit rolls back, so a failed export leaves the previous rows as they were.
 */
/** A source value: text (timestamps and JSON included), a number, or null. */
export type Cell = string | number | null;

export interface WarehouseWriter {
  replace(table: WarehouseTable): Promise<void>;
  append(table: WarehouseTable, rows: Cell[][]): Promise<void>;
  commit(): Promise<void>;
  close(): Promise<void>;
}

export interface WriterTarget {
  projectId: string;
  exportId: string;
  credentials: WarehouseCredentials;
  /** where a Postgres destination may be (SSRF guard, WAREHOUSE_ALLOW_HOSTS) */
  targets: TargetPolicy;
  /** Longest wait for a remote destination: connecting, any one statement, hanging up. */
  timeoutMs: number;
  /**
   * Aborted when the export's run is over its deadline (PI_WAREHOUSE_RUN_DEADLINE_MS): a remote
   * destination hangs up at once, so the statement it waits on fails now, not after timeoutMs.
   */
  deadline: AbortSignal;
}

export function openWriter(
  destination: WarehouseDestination,
  target: WriterTarget,
  config: { duckdbDir: string; parquetDir: string; warehouseCaFile: string | undefined },
): Promise<WarehouseWriter> {
  if (destination === 'postgres') return openPostgresWriter(target, config.warehouseCaFile);
  if (destination === 'duckdb') return openDuckdbWriter(target, config.duckdbDir);
  return openParquetWriter(target, config.parquetDir);
}
