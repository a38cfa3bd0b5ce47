import pg from 'pg';
import { PG_READ_TIMEOUT } from './errors.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// int8 columns (offsets, counts) come back as strings by default; ours fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * JSON documents as one parameter, `[a,b,…]`, read with `jsonb_array_elements($n::jsonb)` (or
 * `json_array_elements($n::json)` into a json column) in a `rows from (…)` beside the unnests of
 * the other columns. As a text[] or jsonb[] parameter, node-postgres escapes every element with two
 * regular expressions: 800 session contributions of ~2 KB took it 140–220 ms of the processors'
 * time, joined 3–6 ms, and Postgres reads both alike.
 */
export const jsonArrayParam = (documents: string[]): string => `[${documents.join(',')}]`;

/** Deadlines of a pool's connections (docs/reliability.md); unset = none. */
export interface PoolLimits {
  /** Postgres cancels a statement running longer (57014: retriable, answered 503 by the API, lib/errors.ts). */
  statementTimeoutMs?: number;
  /** A caller waiting longer for a free connection (or a new one) gets an error instead. */
  acquireTimeoutMs?: number;
  /** Postgres ends a session idle inside a transaction this long, releasing its locks. */
  idleInTransactionMs?: number;
  /** The sessions' `application_name` (pg_stat_activity), when not node-postgres's default. */
  applicationName?: string;
}

/**
 * How much longer than the statement timeout the client waits for an answer: a server that is
 * frozen (a long pause, a partition) cannot cancel its statement, so the client stops waiting and
 * the connection is discarded (npm run faults: with Postgres stopped, requests waited as long as it).
 */
export const READ_MARGIN_MS = 1000;

export function createPool(connectionString: string, max = 10, limits: PoolLimits = {}): pg.Pool {
  return new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    ...(limits.statementTimeoutMs !== undefined && {
      statement_timeout: limits.statementTimeoutMs,
      query_timeout: limits.statementTimeoutMs + READ_MARGIN_MS,
    }),
    ...(limits.acquireTimeoutMs !== undefined && { connectionTimeoutMillis: limits.acquireTimeoutMs }),
    ...(limits.idleInTransactionMs !== undefined && {
      idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    }),
    ...(limits.applicationName !== undefined && { application_name: limits.applicationName }),
  });
}

export interface TransactionOptions {
  /**
   * Postgres ends the session when the transaction waits this long for our next statement: a
   * frozen process (a long pause, a suspended VM) then gives up its row locks instead of holding
   * every other writer of those rows until it wakes.
   */
  idleTimeoutMs?: number;
}

/** Runs `work` in one transaction; rolls back on any error and rethrows it. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  // A session Postgres ends under us errors the socket as well as the next query: unheard, the
  // socket's error would crash the process.
  const ignore = () => undefined;
  client.on('error', ignore);
  let broken = false;
  try {
    await client.query('begin');
    if (options.idleTimeoutMs !== undefined) {
      await client.query(`set local idle_in_transaction_session_timeout = ${Math.round(options.idleTimeoutMs)}`);
    }
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    // A server that did not answer is not asked to roll back: the connection is closed instead,
    // which ends the transaction once the server runs again.
    if ((err as { message?: unknown }).message === PG_READ_TIMEOUT) broken = true;
    else await client.query('rollback').catch(() => (broken = true));
    throw err;
  } finally {
    client.off('error', ignore);
    // A connection that cannot even roll back is closed, not handed to the next caller.
    client.release(broken);
  }
}

/** Marks a savepoint of the client's transaction (`rollbackTo` returns to it). */
export async function savepoint(client: PoolClient, name: string): Promise<void> {
  await client.query(`savepoint ${name}`);
}

/** Undoes what the transaction did since the savepoint, which stays. */
export async function rollbackTo(client: PoolClient, name: string): Promise<void> {
  await client.query(`rollback to savepoint ${name}`);
}

/**
 * Rows → one parameter per column, for a single `insert … select * from rows from (unnest(…), …)`:
 * an array per column, and the JSON columns as one JSON array (`jsonArrayParam`).
 */
export function toColumns<R extends object>(rows: R[], columns: (keyof R)[], json: (keyof R)[] = []): unknown[] {
  return columns.map((column) =>
    json.includes(column) ? jsonArrayParam(rows.map((row) => String(row[column]))) : rows.map((row) => row[column]),
  );
}
