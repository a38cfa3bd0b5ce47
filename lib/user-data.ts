import type { PoolClient } from './db.js';

/**
 * Every table that holds rows of a user. A user's erasure deletes from all of them; a table
 * added by a later migration that keeps per-user rows must be listed here (the erasure test
 * checks every table with a user_id column against this list).
 */
export const USER_TABLES = [
  'raw_events',
  'user_metrics',
  'users',
  'session_events',
  'sessions',
  'friction_signals',
  'friction_page_users',
  'user_daily',
  'user_friction',
  'feature_user_daily',
  'feature_users',
] as const;

/** Deletes the user's rows everywhere and records the erasure; returns how many rows went. */
export async function eraseUser(client: PoolClient, projectId: string, userId: string): Promise<number> {
  let removed = 0;
  for (const table of USER_TABLES) {
    const { rowCount } = await client.query(`delete from ${table} where project_id = $1 and user_id = $2`, [
      projectId,
      userId,
    ]);
    removed += rowCount ?? 0;
  }
  await client.query(
    `insert into deleted_users (project_id, user_hash) values ($1, sha256(convert_to($2, 'UTF8')))
     on conflict (project_id, user_hash) do update set deleted_at = now()`,
    [projectId, userId],
  );
  return removed;
}
