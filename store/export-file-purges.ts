import type { Pool } from '../lib/db.js';

/**
 * export_file_purges: an erasure (store/user-data.ts) asks for its project's export files written
 * before it to go, since they may hold the erased user; the retention worker deletes them and
 * then the request.
 */

/** A purge asked for: `stamp` is requested_at as text too, since a Date has milliseconds and the column microseconds. */
export interface PurgeRequest {
  project_id: string;
  requested_at: Date;
  stamp: string;
}

/** Every purge asked for. */
export async function purgeRequests(db: Pool): Promise<PurgeRequest[]> {
  const { rows } = await db.query<PurgeRequest>(
    'select project_id, requested_at, requested_at::text as stamp from export_file_purges',
  );
  return rows;
}

/**
 * Deletes the request once its files are gone, only if still the one read: a later erasure moved
 * requested_at on, and its purge stays for the next pass.
 */
export async function purgeDone(db: Pool, projectId: string, stamp: string): Promise<void> {
  await db.query('delete from export_file_purges where project_id = $1 and requested_at = $2::timestamptz', [
    projectId,
    stamp,
  ]);
}
