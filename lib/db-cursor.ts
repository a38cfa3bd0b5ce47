import Cursor from 'pg-cursor';
import type { PoolClient } from './db.js';

/**
 * The rows of a query in batches of at most `size`, read through a server-side cursor: memory
 * holds one batch whatever the result's size. Stopping early (return/throw into the generator)
 * closes the cursor. After a failed read the connection is in an unknown state (pg-cursor's close
 * would wait forever on a dead one): it is not touched, and the caller must release the client
 * with release(true).
 */
export async function* queryBatches<Row>(
  client: PoolClient,
  text: string,
  values: unknown[],
  size: number,
  rowMode?: 'array',
): AsyncGenerator<Row[], void, undefined> {
  const cursor = client.query(new Cursor<Row>(text, values, rowMode ? { rowMode } : {}));
  let failed = false;
  try {
    for (;;) {
      let rows: Row[];
      try {
        rows = await cursor.read(size);
      } catch (err) {
        failed = true;
        throw err;
      }
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
    }
  } finally {
    if (!failed) await cursor.close();
  }
}
