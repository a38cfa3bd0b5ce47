import type { Context } from 'koa';
import { type ResolvedKey, TIER_LIMITS } from '../../store/api-keys.js';
import {
  deleteExpiredSessions,
  deleteMemberSessions,
  deleteSession,
  insertSession,
  liveSession,
  liveSessionRoles,
  notifySessionsEnded,
} from '../../store/console-sessions.js';
import type { Pool, PoolClient } from '../../lib/db.js';
import { ApiError, unauthorized } from '../errors.js';
import { type Role, keyScopesOf } from './roles.js';
import { csrfRefusal, csrfTokenFor, hashToken, newToken, tokenKind } from './tokens.js';

/** A session lasts a week from sign-in; signing out (here or everywhere) ends it sooner. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

// Over HTTPS the __Host- prefix makes the browser refuse the cookie unless it is Secure, for the
// whole host and set by it (no Domain): a sibling subdomain cannot plant or shadow it.
const COOKIE = { plain: 'pi_console', secure: '__Host-pi_console' };

export interface ConsoleIdentity {
  projectId: string;
  projectName: string;
  userId: string;
  email: string;
  role: Role;
  hasPassword: boolean;
  /** opened by a one-time sign-in link */
  viaLink: boolean;
  expiresAt: Date;
  tokenHash: Buffer;
  csrfToken: string;
}

declare module 'koa' {
  interface DefaultState {
    /** Set when the request is authenticated by a console session cookie (then its role decides: api/console/roles.ts). */
    console?: ConsoleIdentity;
  }
}

export const cookieName = (ctx: Context) => (ctx.secure ? COOKIE.secure : COOKIE.plain);

/**
 * This service's origin as the browser addressed it (behind a proxy: X-Forwarded-Proto/-Host, the
 * app trusting its proxy). Not Koa's ctx.origin: from Koa 3 on that is the request's Origin header.
 */
export const ownOrigin = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;

/** Opens a session for the user: a new random token in an HttpOnly, SameSite=Strict cookie. */
export async function openSession(
  db: Pool,
  ctx: Context,
  user: { projectId: string; userId: string },
  viaLink: boolean,
): Promise<void> {
  const token = newToken('session');
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  const previous = ctx.cookies.get(cookieName(ctx));
  if (previous) await deleteSession(db, hashToken(previous));
  // The user's expired sessions go whenever a new one opens: the table holds live ones and few others.
  await deleteExpiredSessions(db, user.projectId, user.userId);
  await insertSession(db, {
    projectId: user.projectId,
    tokenHash: hashToken(token),
    memberId: user.userId,
    viaLink,
    expiresAt,
  });
  ctx.cookies.set(cookieName(ctx), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    expires: expiresAt,
    overwrite: true,
  });
  // The rest of this request sees the new session (the answer carries its CSRF token).
  ctx.state.console = (await findSession(db, token))?.identity;
}

export function clearSessionCookie(ctx: Context): void {
  ctx.cookies.set(cookieName(ctx), '', {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    expires: new Date(0),
    overwrite: true,
  });
}

async function findSession(
  db: Pool,
  token: string,
): Promise<{ identity: ConsoleIdentity; rateLimit: number } | undefined> {
  const tokenHash = hashToken(token);
  const row = await liveSession(db, tokenHash, TIER_LIMITS);
  if (!row) return undefined;
  return {
    identity: {
      projectId: row.project_id,
      projectName: row.project_name,
      userId: row.member_id,
      email: row.email,
      role: row.role as Role,
      hasPassword: row.has_password,
      viaLink: row.via_link,
      expiresAt: row.expires_at,
      tokenHash,
      csrfToken: csrfTokenFor(token),
    },
    rateLimit: row.rate_limit,
  };
}

/**
 * The console session of a request without an Authorization header: undefined when it carries no
 * session cookie; 401 for an unknown, expired or signed-out session; 403 for a change without the
 * session's CSRF token or from another origin. A session acts for its member with what their role
 * allows (api/auth.ts, requireScope); where key scopes are read, it counts as keyScopesOf(role).
 */
export async function authenticateConsole(
  db: Pool,
  ctx: Context,
): Promise<{ auth: ResolvedKey; identity: ConsoleIdentity } | undefined> {
  const token = ctx.cookies.get(cookieName(ctx));
  if (!token) return undefined;
  const found = tokenKind(token) === 'session' ? await findSession(db, token) : undefined;
  if (!found) {
    clearSessionCookie(ctx);
    throw unauthorized('The console session is unknown, expired or signed out; sign in again.');
  }
  const refusal = csrfRefusal({
    method: ctx.method,
    origin: ctx.get('Origin') || undefined,
    expectedOrigin: ownOrigin(ctx),
    header: ctx.get('X-CSRF-Token') || undefined,
    sessionToken: token,
  });
  if (refusal) throw new ApiError(403, 'forbidden', refusal.message, { reason: refusal.reason });
  const { identity, rateLimit } = found;
  return {
    identity,
    auth: {
      projectId: identity.projectId,
      keyId: `console:${identity.userId}`,
      scopes: keyScopesOf(identity.role),
      rateLimitPerHour: rateLimit,
      allowedOrigins: null,
    },
  };
}

/** Ends sessions: this one, or every session of its user ("sign out everywhere"); their streams close. */
export async function endSessions(db: Pool, identity: ConsoleIdentity, everywhere: boolean): Promise<number> {
  const ended = everywhere
    ? await deleteMemberSessions(db, identity.projectId, identity.userId)
    : await deleteSession(db, identity.tokenHash);
  if (ended) await announceSessionsEnded(db);
  return ended;
}

/**
 * Wakes the streams' check of their credentials (api/stream/server.ts) at commit: a stream opened
 * with a console stream token lasts as long as the session that asked for the token.
 */
export async function announceSessionsEnded(db: Pool | PoolClient): Promise<void> {
  await notifySessionsEnded(db);
}

/** Of the given session hashes, those of sessions still open, with their member's role. */
export async function liveSessions(db: Pool, tokenHashes: Buffer[]): Promise<Map<string, Role>> {
  const rows = await liveSessionRoles(db, tokenHashes);
  return new Map(rows.map((r) => [r.token_hash.toString('hex'), r.role as Role]));
}
