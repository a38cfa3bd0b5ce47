import type pg from 'pg';
import { KEY_CHANGES_CHANNEL } from '../../store/api-keys.js';
import { newId } from '../../lib/ids.js';
import { ApiError } from '../errors.js';
import type { Role } from './roles.js';
import { type TokenKind, hashToken, newToken } from './tokens.js';

type Db = pg.Pool | pg.PoolClient;

export interface ConsoleUser {
  projectId: string;
  userId: string;
  email: string;
  role: Role;
  hasPassword: boolean;
  createdAt: Date;
}

/** One-time tokens: a sign-in link lasts a day, a stream token a minute (it is used at once). */
export const TOKEN_TTL_MS = { signIn: 24 * 3600_000, stream: 60_000 } as const;
const PURPOSE = { signIn: 'sign_in', stream: 'stream' } as const;
type OneTime = keyof typeof TOKEN_TTL_MS;

const USER_COLUMNS = `project_id, member_id, email, role, password_hash is not null as has_password, created_at`;

interface UserRow {
  project_id: string;
  member_id: string;
  email: string;
  role: Role;
  has_password: boolean;
  created_at: Date;
}

const toUser = (r: UserRow): ConsoleUser => ({
  projectId: r.project_id,
  userId: r.member_id,
  email: r.email,
  role: r.role,
  hasPassword: r.has_password,
  createdAt: r.created_at,
});

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(
  db: Db,
  email: string,
): Promise<(ConsoleUser & { passwordHash: string | null }) | undefined> {
  const { rows } = await db.query<UserRow & { password_hash: string | null }>(
    `select ${USER_COLUMNS}, password_hash from console_users where email = $1`,
    [normaliseEmail(email)],
  );
  return rows[0] && { ...toUser(rows[0]), passwordHash: rows[0].password_hash };
}

export async function listUsers(db: Db, projectId: string): Promise<ConsoleUser[]> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from console_users where project_id = $1 order by created_at, member_id`,
    [projectId],
  );
  return rows.map(toUser);
}

/**
 * The project's user with this email, created with `role` when absent. An address that already
 * belongs to another project is a 409: a sign-in names no project, so an address finds exactly one.
 */
export async function ensureUser(db: Db, projectId: string, email: string, role: Role): Promise<ConsoleUser> {
  const address = normaliseEmail(email);
  const { rows } = await db.query<UserRow>(
    `with added as (
       insert into console_users (project_id, member_id, email, role) values ($1, $2, $3, $4)
       on conflict (email) do nothing returning ${USER_COLUMNS})
     select * from added union all select ${USER_COLUMNS} from console_users where email = $3`,
    [projectId, newId('cu'), address, role],
  );
  // A concurrent invite of the same new address can win the insert after this statement's
  // snapshot was taken: then the row is read again, now committed.
  const user =
    rows[0] ??
    (await db.query<UserRow>(`select ${USER_COLUMNS} from console_users where email = $1`, [address])).rows[0]!;
  if (user.project_id !== projectId) {
    throw new ApiError(409, 'conflict', `${address} already has a console account in another project.`, {
      field: 'email',
      reason: 'taken',
    });
  }
  return toUser(user);
}

/**
 * A one-time token of `purpose` for the user; only its hash is stored. A stream token names the
 * session that asked for it (`tokenHash`): the stream it opens lasts as long as that session.
 */
export async function issueToken(
  db: Db,
  user: { projectId: string; userId: string; tokenHash?: Buffer },
  purpose: OneTime,
  now = Date.now(),
) {
  const token = newToken(purpose satisfies TokenKind);
  const expiresAt = new Date(now + TOKEN_TTL_MS[purpose]);
  // Spent and expired tokens of this user go whenever a new one is made: the table stays small.
  await db.query(
    `delete from console_tokens where project_id = $1 and member_id = $2 and (used_at is not null or expires_at < now())`,
    [user.projectId, user.userId],
  );
  await db.query(
    `insert into console_tokens (project_id, token_hash, member_id, purpose, expires_at, session_hash)
     values ($1, $2, $3, $4, $5, $6)`,
    [user.projectId, hashToken(token), user.userId, PURPOSE[purpose], expiresAt, user.tokenHash ?? null],
  );
  return { token, expiresAt };
}

/**
 * Marks a live token of `purpose` used and answers whose it was (and, for a stream token, the
 * session it was issued to); a second use finds nothing.
 */
export async function consumeToken(
  db: Db,
  token: string,
  purpose: OneTime,
): Promise<{ projectId: string; userId: string; sessionHash: Buffer | null } | undefined> {
  const { rows } = await db.query<{ project_id: string; member_id: string; session_hash: Buffer | null }>(
    `update console_tokens set used_at = now()
     where token_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
     returning project_id, member_id, session_hash`,
    [hashToken(token), PURPOSE[purpose]],
  );
  return rows[0] && { projectId: rows[0].project_id, userId: rows[0].member_id, sessionHash: rows[0].session_hash };
}

/**
 * The link a person follows to sign in. The token travels in the fragment, which browsers never
 * send to a server, so it stays out of access logs and Referer headers; the console posts it.
 */
export function signInLink(baseUrl: string, token: string): string {
  return `${new URL(baseUrl).origin}/console/sign-in/link#token=${token}`;
}

/** Creates the person when new (as `role`) and issues a one-time sign-in link for them. */
export async function inviteUser(db: Db, projectId: string, email: string, role: Role, baseUrl: string) {
  const user = await ensureUser(db, projectId, email, role);
  const { token, expiresAt } = await issueToken(db, user, 'signIn');
  return { user, link: signInLink(baseUrl, token), expiresAt };
}

/**
 * What `npm start` prints: the console's address and a one-time sign-in link for the project's
 * first owner (owner@<project>.localhost is created when the project has none).
 */
export async function consoleOwnerLink(db: Db, projectId: string, baseUrl: string) {
  const { rows } = await db.query<{ email: string | null; name: string }>(
    `select (select email from console_users u where u.project_id = p.project_id and role = 'owner'
             order by created_at, member_id limit 1) as email, name
     from projects p where project_id = $1`,
    [projectId],
  );
  if (!rows[0]) throw new Error(`no project ${projectId}`);
  const slug =
    rows[0].name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'project';
  const email = rows[0].email ?? `owner@${slug}.localhost`;
  const { link, expiresAt } = await inviteUser(db, projectId, email, 'owner', baseUrl);
  return { consoleUrl: `${new URL(baseUrl).origin}/console`, link, email, expiresAt };
}

/**
 * Revokes, in the caller's transaction, the keys the member made and, along the keys' creators,
 * every key those made (an admin key a member minted may have minted more); each revocation is
 * announced at commit, so the keys' streams close. The ids revoked now.
 */
export async function revokeKeysMadeBy(db: pg.PoolClient, projectId: string, memberId: string): Promise<string[]> {
  const { rows } = await db.query<{ key_id: string }>(
    `with recursive made (key_id) as (
       select key_id from api_keys where project_id = $1 and created_by_member = $2
       union
       select k.key_id from api_keys k join made m on k.created_by_key = m.key_id where k.project_id = $1),
     revoked as (
       update api_keys k set revoked_at = now() from made m
       where k.project_id = $1 and k.key_id = m.key_id and k.revoked_at is null returning k.key_id)
     select key_id, pg_notify($3, json_build_object('key_id', key_id)::text) from revoked order by key_id`,
    [projectId, memberId, KEY_CHANGES_CHANNEL],
  );
  return rows.map((r) => r.key_id);
}
