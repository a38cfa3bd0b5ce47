import type pg from 'pg';
import {
  type ConsoleUserRow,
  addUserUnlessPresent,
  projectFirstOwner,
  projectUsers,
  userByEmail,
} from '../../store/console-users.js';
import { deleteSpentTokens, insertToken, useToken } from '../../store/console-sessions.js';
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

const toUser = (r: ConsoleUserRow): ConsoleUser => ({
  projectId: r.project_id,
  userId: r.member_id,
  email: r.email,
  role: r.role as Role,
  hasPassword: r.has_password,
  createdAt: r.created_at,
});

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(
  db: Db,
  email: string,
): Promise<(ConsoleUser & { passwordHash: string | null }) | undefined> {
  const row = await userByEmail(db, normaliseEmail(email));
  return row && { ...toUser(row), passwordHash: row.password_hash };
}

export async function listUsers(db: Db, projectId: string): Promise<ConsoleUser[]> {
  return (await projectUsers(db, projectId)).map(toUser);
}

/**
 * The project's user with this email, created with `role` when absent. An address that already
 * belongs to another project is a 409: a sign-in names no project, so an address finds exactly one.
 */
export async function ensureUser(db: Db, projectId: string, email: string, role: Role): Promise<ConsoleUser> {
  const address = normaliseEmail(email);
  // A concurrent invite of the same new address can win the insert after this statement's
  // snapshot was taken: then the row is read again, now committed.
  const user =
    (await addUserUnlessPresent(db, { projectId, memberId: newId('cu'), email: address, role })) ??
    (await userByEmail(db, address))!;
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
  await deleteSpentTokens(db, user.projectId, user.userId);
  await insertToken(db, {
    projectId: user.projectId,
    tokenHash: hashToken(token),
    memberId: user.userId,
    purpose: PURPOSE[purpose],
    expiresAt,
    sessionHash: user.tokenHash ?? null,
  });
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
  const row = await useToken(db, hashToken(token), PURPOSE[purpose]);
  return row && { projectId: row.project_id, userId: row.member_id, sessionHash: row.session_hash };
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
  const project = await projectFirstOwner(db, projectId);
  if (!project) throw new Error(`no project ${projectId}`);
  const slug =
    project.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'project';
  const email = project.email ?? `owner@${slug}.localhost`;
  const { link, expiresAt } = await inviteUser(db, projectId, email, 'owner', baseUrl);
  return { consoleUrl: `${new URL(baseUrl).origin}/console`, link, email, expiresAt };
}
