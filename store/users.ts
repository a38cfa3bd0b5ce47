import type { Pool, PoolClient } from '../lib/db.js';

/**
 * users: a project's users and their properties, as the API's user routes keep them
 * (api/routes/users.ts: the caller holds the user's lock and, for segment properties, keeps the
 * answer tables; store/README.md's lock order).
 */

export interface UserRow {
  user_id: string;
  properties: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  /** whether this statement inserted the row */
  created: boolean;
}

/**
 * Merges properties into the user's (a null value removes the key) and reads the user after;
 * with `createIfMissing` an unknown user is inserted, else undefined. From a browser key, only
 * properties the user does not have yet are added (docs/adr/0086).
 */
export async function mergeUserProperties(
  client: PoolClient,
  change: {
    projectId: string;
    userId: string;
    properties: Record<string, unknown>;
    createIfMissing: boolean;
    fromBrowser: boolean;
  },
): Promise<UserRow | undefined> {
  const merged = change.fromBrowser
    ? 'jsonb_strip_nulls($3::jsonb) || users.properties'
    : 'jsonb_strip_nulls(users.properties || $3::jsonb)';
  const sql = change.createIfMissing
    ? `insert into users (project_id, user_id, properties) values ($1, $2, jsonb_strip_nulls($3::jsonb))
       on conflict (project_id, user_id) do update
         set properties = ${merged}, updated_at = now()
       returning user_id, properties, created_at, updated_at, (xmax = 0) as created`
    : `update users set properties = jsonb_strip_nulls(properties || $3::jsonb), updated_at = now()
       where project_id = $1 and user_id = $2
       returning user_id, properties, created_at, updated_at, false as created`;
  const { rows } = await client.query<UserRow>(sql, [
    change.projectId,
    change.userId,
    JSON.stringify(change.properties),
  ]);
  return rows[0];
}

/** Reads a user's properties. */
export async function userById(
  db: Pool,
  projectId: string,
  userId: string,
): Promise<Omit<UserRow, 'created'> | undefined> {
  const { rows } = await db.query<Omit<UserRow, 'created'>>(
    'select user_id, properties, created_at, updated_at from users where project_id = $1 and user_id = $2',
    [projectId, userId],
  );
  return rows[0];
}
