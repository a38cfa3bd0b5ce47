import type { Pool, PoolClient } from '../lib/db.js';

/**
 * console_users: the console's members, one per email across all projects (api/console/accounts.ts
 * and api/console/routes.ts compose these). Roles are stored as text; the API reads them as its Role.
 */

type Db = Pool | PoolClient;

/** A member as the console reads them (the hash only says whether a password is set). */
export interface ConsoleUserRow {
  project_id: string;
  member_id: string;
  email: string;
  role: string;
  has_password: boolean;
  created_at: Date;
}

const USER_COLUMNS = `project_id, member_id, email, role, password_hash is not null as has_password, created_at`;

/** Reads the member with this (normalised) email, with their password hash. */
export async function userByEmail(
  db: Db,
  email: string,
): Promise<(ConsoleUserRow & { password_hash: string | null }) | undefined> {
  const { rows } = await db.query<ConsoleUserRow & { password_hash: string | null }>(
    `select ${USER_COLUMNS}, password_hash from console_users where email = $1`,
    [email],
  );
  return rows[0];
}

/** Reads a project's members, oldest first. */
export async function projectUsers(db: Db, projectId: string): Promise<ConsoleUserRow[]> {
  const { rows } = await db.query<ConsoleUserRow>(
    `select ${USER_COLUMNS} from console_users where project_id = $1 order by created_at, member_id`,
    [projectId],
  );
  return rows;
}

/**
 * Inserts the member unless the email exists, and reads the email's row either way; undefined when
 * a concurrent insert of the same email committed after this statement's snapshot.
 */
export async function addUserUnlessPresent(
  db: Db,
  user: { projectId: string; memberId: string; email: string; role: string },
): Promise<ConsoleUserRow | undefined> {
  const { rows } = await db.query<ConsoleUserRow>(
    `with added as (
       insert into console_users (project_id, member_id, email, role) values ($1, $2, $3, $4)
       on conflict (email) do nothing returning ${USER_COLUMNS})
     select * from added union all select ${USER_COLUMNS} from console_users where email = $3`,
    [user.projectId, user.memberId, user.email, user.role],
  );
  return rows[0];
}

/** Reads the project's name and the email of its first owner (null when it has none); undefined: no project. */
export async function projectFirstOwner(
  db: Db,
  projectId: string,
): Promise<{ email: string | null; name: string } | undefined> {
  const { rows } = await db.query<{ email: string | null; name: string }>(
    `select (select email from console_users u where u.project_id = p.project_id and role = 'owner'
             order by created_at, member_id limit 1) as email, name
     from projects p where project_id = $1`,
    [projectId],
  );
  return rows[0];
}

/** Locks the project's owners' rows (to commit), before a role change or removal counts them. */
export async function lockOwners(client: PoolClient, projectId: string): Promise<void> {
  await client.query("select 1 from console_users where project_id = $1 and role = 'owner' for update", [projectId]);
}

/** Locks and reads a member's email and role, with the project's count of owners. */
export async function memberForChange(
  client: PoolClient,
  projectId: string,
  memberId: string,
): Promise<{ email: string; role: string; owners: number } | undefined> {
  const { rows } = await client.query<{ email: string; role: string; owners: number }>(
    `select email, role, (select count(*)::int from console_users where project_id = $1 and role = 'owner') as owners
     from console_users where project_id = $1 and member_id = $2 for update`,
    [projectId, memberId],
  );
  return rows[0];
}

/** Sets a member's role. */
export async function setRole(client: PoolClient, projectId: string, memberId: string, role: string): Promise<void> {
  await client.query(
    'update console_users set role = $3, updated_at = now() where project_id = $1 and member_id = $2',
    [projectId, memberId, role],
  );
}

/** Deletes a member (their sessions and tokens go with them, by foreign key). */
export async function deleteUser(client: PoolClient, projectId: string, memberId: string): Promise<void> {
  await client.query('delete from console_users where project_id = $1 and member_id = $2', [projectId, memberId]);
}

/** Replaces a member's password hash after a rehash (updated_at kept: the password did not change). */
export async function rehashPassword(db: Db, projectId: string, memberId: string, hash: string): Promise<void> {
  await db.query('update console_users set password_hash = $3 where project_id = $1 and member_id = $2', [
    projectId,
    memberId,
    hash,
  ]);
}

/** Sets a member's new password hash. */
export async function setPassword(db: Db, projectId: string, memberId: string, hash: string): Promise<void> {
  await db.query(
    'update console_users set password_hash = $3, updated_at = now() where project_id = $1 and member_id = $2',
    [projectId, memberId, hash],
  );
}
