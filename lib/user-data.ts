import { ContributionDeltas } from './contribution-store.js';
import type { PoolClient } from './db.js';
import type { SessionContribution } from './session-contribution.js';

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
  await lockUser(client, projectId, userId);
  // The user's share of the anonymous daily tables goes too, so they stay the sum over the
  // remaining sessions (and equal what a replay would build).
  const { rows } = await client.query<{ contribution: SessionContribution }>(
    'select contribution from sessions where project_id = $1 and user_id = $2',
    [projectId, userId],
  );
  const deltas = new ContributionDeltas();
  for (const row of rows) deltas.add(projectId, row.contribution, -1);
  await deltas.apply(client);
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

/** Serialises work on one user's analytics rows (the analytics processor and erasure) until commit. */
export async function lockUser(client: PoolClient, projectId: string, userId: string): Promise<void> {
  await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${projectId}:${userId}`]);
}
