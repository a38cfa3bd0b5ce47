import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// int8 columns (offsets, counts) come back as strings by default; ours fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createPool(connectionString: string, max = 10): pg.Pool {
  return new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
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
    await client.query('rollback').catch(() => (broken = true));
    throw err;
  } finally {
    client.off('error', ignore);
    // A connection that cannot even roll back is closed, not handed to the next caller.
    client.release(broken);
  }
}
