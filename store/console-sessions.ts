import type { Pool, PoolClient } from '../lib/db.js';
import { KEY_CHANGES_CHANNEL } from './api-keys.js';

/**
 * console_sessions and console_tokens: the console's signed-in sessions and one-time tokens, by
 * the hash of their token (api/console/sessions.ts and accounts.ts compose these).
 */

type Db = Pool | PoolClient;

/** A live session with its member and project, as a request's authentication reads it. */
export interface SessionRow {
  project_id: string;
  project_name: string;
  member_id: string;
  email: string;
  role: string;
  has_password: boolean;
  via_link: boolean;
  expires_at: Date;
  rate_limit: number;
}

/** Deletes the session of this token hash. */
export async function deleteSession(db: Db, tokenHash: Buffer): Promise<number> {
  const { rowCount } = await db.query('delete from console_sessions where token_hash = $1', [tokenHash]);
  return rowCount ?? 0;
}

/** Deletes a member's expired sessions. */
export async function deleteExpiredSessions(db: Db, projectId: string, memberId: string): Promise<void> {
  await db.query('delete from console_sessions where project_id = $1 and member_id = $2 and expires_at < now()', [
    projectId,
    memberId,
  ]);
}

/** Inserts a session. */
export async function insertSession(
  db: Db,
  session: { projectId: string; tokenHash: Buffer; memberId: string; viaLink: boolean; expiresAt: Date },
): Promise<void> {
  await db.query(
    `insert into console_sessions (project_id, token_hash, member_id, via_link, expires_at) values ($1, $2, $3, $4, $5)`,
    [session.projectId, session.tokenHash, session.memberId, session.viaLink, session.expiresAt],
  );
}

/**
 * Reads the live session of this token hash with its member, project name and the project's hourly
 * rate limit (the tiers' limits given, as `standard` and `pro`).
 */
export async function liveSession(
  db: Db,
  tokenHash: Buffer,
  tiers: { standard: number; pro: number },
): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>(
    `select s.project_id, p.name as project_name, s.member_id, u.email, u.role, u.password_hash is not null as has_password,
            s.via_link, s.expires_at,
            case p.rate_tier when 'standard' then $2::int when 'pro' then $3::int else p.rate_limit_per_hour end as rate_limit
     from console_sessions s
     join console_users u on u.project_id = s.project_id and u.member_id = s.member_id
     join projects p on p.project_id = s.project_id
     where s.token_hash = $1 and s.expires_at > now()`,
    [tokenHash, tiers.standard, tiers.pro],
  );
  return rows[0];
}

/** Deletes every session of a member; the count deleted. */
export async function deleteMemberSessions(db: Db, projectId: string, memberId: string): Promise<number> {
  const { rowCount } = await db.query('delete from console_sessions where project_id = $1 and member_id = $2', [
    projectId,
    memberId,
  ]);
  return rowCount ?? 0;
}

/** Deletes a member's sessions but the one of this token hash; the count deleted. */
export async function deleteOtherSessions(db: Db, projectId: string, memberId: string, keep: Buffer): Promise<number> {
  const { rowCount } = await db.query(
    'delete from console_sessions where project_id = $1 and member_id = $2 and token_hash <> $3',
    [projectId, memberId, keep],
  );
  return rowCount ?? 0;
}

/** Marks the session of this token hash as no longer opened by a link. */
export async function clearViaLink(db: Db, tokenHash: Buffer): Promise<void> {
  await db.query('update console_sessions set via_link = false where token_hash = $1', [tokenHash]);
}

/** NOTIFYs the key-changes channel, at commit, that sessions ended (streams check their credentials). */
export async function notifySessionsEnded(db: Db): Promise<void> {
  await db.query('select pg_notify($1, $2)', [KEY_CHANGES_CHANNEL, JSON.stringify({ sessions_ended: true })]);
}

/** Reads which of these session hashes are of live sessions, with their member's role. */
export async function liveSessionRoles(db: Db, tokenHashes: Buffer[]): Promise<{ token_hash: Buffer; role: string }[]> {
  const { rows } = await db.query<{ token_hash: Buffer; role: string }>(
    `select s.token_hash, u.role from console_sessions s
     join console_users u on u.project_id = s.project_id and u.member_id = s.member_id
     where s.token_hash = any($1) and s.expires_at > now()`,
    [tokenHashes],
  );
  return rows;
}

/** Deletes a member's spent and expired one-time tokens. */
export async function deleteSpentTokens(db: Db, projectId: string, memberId: string): Promise<void> {
  await db.query(
    `delete from console_tokens where project_id = $1 and member_id = $2 and (used_at is not null or expires_at < now())`,
    [projectId, memberId],
  );
}

/** Inserts a one-time token (`sessionHash`: the session a stream token was issued to). */
export async function insertToken(
  db: Db,
  token: {
    projectId: string;
    tokenHash: Buffer;
    memberId: string;
    purpose: string;
    expiresAt: Date;
    sessionHash: Buffer | null;
  },
): Promise<void> {
  await db.query(
    `insert into console_tokens (project_id, token_hash, member_id, purpose, expires_at, session_hash)
     values ($1, $2, $3, $4, $5, $6)`,
    [token.projectId, token.tokenHash, token.memberId, token.purpose, token.expiresAt, token.sessionHash],
  );
}

/** Marks a live token of `purpose` used and reads whose it was; undefined when spent, expired or unknown. */
export async function useToken(
  db: Db,
  tokenHash: Buffer,
  purpose: string,
): Promise<{ project_id: string; member_id: string; session_hash: Buffer | null } | undefined> {
  const { rows } = await db.query<{ project_id: string; member_id: string; session_hash: Buffer | null }>(
    `update console_tokens set used_at = now()
     where token_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
     returning project_id, member_id, session_hash`,
    [tokenHash, purpose],
  );
  return rows[0];
}
