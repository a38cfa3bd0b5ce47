import type { Context } from 'koa';
import { revokeKeysMadeBy } from '../../store/api-keys.js';
import { type AuditSource, audit } from '../../store/audit-log.js';
import { clearViaLink, deleteOtherSessions } from '../../store/console-sessions.js';
import {
  deleteUser,
  lockOwners,
  memberForChange,
  rehashPassword,
  setPassword,
  setRole,
} from '../../store/console-users.js';
import { type Pool, inTransaction } from '../../lib/db.js';
import { outlastLeases } from '../../lib/lease.js';
import { ApiError, fieldError, notFound, unauthorized } from '../errors.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import {
  consumeToken,
  findUserByEmail,
  inviteUser,
  issueToken,
  listUsers,
  normaliseEmail,
  signInLink,
} from './accounts.js';
import { burnVerification, hashPassword, needsRehash, passwordProblem, verifyPassword } from './passwords.js';
import { type Role, roleHolds } from './roles.js';
import {
  type ConsoleIdentity,
  announceSessionsEnded,
  clearSessionCookie,
  endSessions,
  openSession,
  ownOrigin,
} from './sessions.js';
import { checkSignIn, countAddressAttempt, signInFailed, signInSucceeded } from './sign-in-limit.js';
import { originRefusal, tokenKind } from './tokens.js';

const TAG = 'Console';

/** Routes under a console session: an API key (even an admin one) is not a person. */
function identity(ctx: Context): ConsoleIdentity {
  if (!ctx.state.console) {
    throw new ApiError(403, 'forbidden', 'Only a signed-in console session may do this, not an API key.', {
      reason: 'console_session_required',
    });
  }
  return ctx.state.console;
}

/**
 * Removes a member (`to` undefined) or gives them another role, in one transaction: never the last
 * owner; the keys they made are revoked (with the keys those made) when they go or lose admin, and
 * their sessions end when they go, which closes their streams. Recorded in the audit log.
 */
async function changeMember(db: Pool, ctx: AuditSource, who: ConsoleIdentity, id: string, to?: Role) {
  const outcome = await inTransaction(db, async (client) => {
    // The owners' rows are locked first: two owners removing or demoting each other at once cannot
    // leave the project ownerless (the second counts again once the first has committed).
    await lockOwners(client, who.projectId);
    const found = await memberForChange(client, who.projectId, id);
    if (!found) return 'not_found';
    const member = { ...found, role: found.role as Role };
    if (member.role === 'owner' && to !== 'owner' && member.owners <= 1) return 'last_owner';
    if (to) {
      await setRole(client, who.projectId, id, to);
    } else {
      await deleteUser(client, who.projectId, id);
      await announceSessionsEnded(client);
    }
    const revoked = to && roleHolds(to, 'admin') ? [] : await revokeKeysMadeBy(client, who.projectId, id);
    for (const keyId of revoked) await audit(client, ctx, 'api_key.revoked', keyId, { member_id: id });
    const change = to ? { from: member.role, to } : { role: member.role };
    await audit(client, ctx, to ? 'member.role_changed' : 'member.removed', id, {
      email: member.email,
      ...change,
      keys_revoked: revoked,
    });
    return { email: member.email, revoked };
  });
  if (outcome === 'not_found') throw notFound('console member');
  if (outcome === 'last_owner') {
    throw new ApiError(409, 'conflict', 'A project keeps at least one owner: this is its last.', {
      reason: 'last_owner',
    });
  }
  // API processes answer from a key read up to a lease ago: none accepts a revoked key after this.
  if (outcome.revoked.length > 0) await outlastLeases();
  return outcome;
}

/** A sign-in posted by another site (login CSRF) is refused; one without Origin (curl) is not. */
function sameOrigin(ctx: Context): void {
  const refusal = originRefusal(ctx.get('Origin') || undefined, ownOrigin(ctx), false);
  if (refusal) throw new ApiError(403, 'forbidden', refusal.message, { reason: refusal.reason });
}

const presentSession = (who: ConsoleIdentity) => ({
  user: { id: who.userId, email: who.email, role: who.role, has_password: who.hasPassword },
  project: { id: who.projectId, name: who.projectName },
  csrf_token: who.csrfToken,
  via_link: who.viaLink,
  expires_at: who.expiresAt.toISOString(),
});

const presentMember = (u: { userId: string; email: string; role: Role; hasPassword: boolean; createdAt: Date }) => ({
  id: u.userId,
  email: u.email,
  role: u.role,
  has_password: u.hasPassword,
  created_at: u.createdAt.toISOString(),
});

/** The console's own endpoints (/v1/console/…): sign-in, session, password, members, stream token. */
export function consoleRoutes(db: Pool): Route[] {
  return [
    defineRoute<{ email: string; password: string }>({
      method: 'POST',
      path: '/console/sign-in',
      tag: TAG,
      summary: 'Sign in to the admin console with email and password; sets the session cookie',
      body: 'console-sign-in.json',
      success: {
        status: 200,
        schema: 'ConsoleSession',
        description: '{ user, project, csrf_token, via_link, expires_at }',
      },
      errors: { 401: 'Wrong email or password', 403: 'Posted from another origin', 429: 'Too many attempts' },
      async handle(ctx, input) {
        sameOrigin(ctx);
        const email = normaliseEmail(input.email);
        // Limits per (email, address) and per address, never per email alone: wrong passwords
        // from elsewhere do not keep the owner out (api/console/sign-in-limit.ts).
        await checkSignIn(db, email, ctx.ip);
        const user = await findUserByEmail(db, email);
        const ok = user?.passwordHash
          ? await verifyPassword(input.password, user.passwordHash)
          : await burnVerification(input.password);
        if (!user || !ok) {
          await signInFailed(db, email, ctx.ip);
          throw unauthorized('The email or password is wrong.');
        }
        await signInSucceeded(db, email, ctx.ip);
        if (needsRehash(user.passwordHash!)) {
          await rehashPassword(db, user.projectId, user.userId, await hashPassword(input.password));
        }
        await openSession(db, ctx, user, false);
        ctx.body = presentSession(ctx.state.console!);
      },
    }),
    defineRoute<{ token: string }>({
      method: 'POST',
      path: '/console/sign-in/link',
      tag: TAG,
      summary: 'Sign in with a one-time link (the token after #token=); it can be used once, within 24 h',
      body: 'console-link-sign-in.json',
      success: {
        status: 200,
        schema: 'ConsoleSession',
        description: '{ user, project, csrf_token, via_link: true, expires_at }',
      },
      errors: { 401: 'The link is unknown, used or expired', 429: 'Too many attempts from this address' },
      async handle(ctx, input) {
        sameOrigin(ctx);
        await countAddressAttempt(db, ctx.ip);
        const user = tokenKind(input.token) === 'signIn' ? await consumeToken(db, input.token, 'signIn') : undefined;
        if (!user) throw unauthorized('This sign-in link is unknown, used or expired; ask an owner for a new one.');
        await openSession(db, ctx, user, true);
        ctx.body = presentSession(ctx.state.console!);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/console/session',
      tag: TAG,
      summary: 'The signed-in console user, their project and the CSRF token for changes',
      scope: 'admin',
      success: {
        status: 200,
        schema: 'ConsoleSession',
        description: '{ user, project, csrf_token, via_link, expires_at }',
      },
      // eslint-disable-next-line @typescript-eslint/require-await
      async handle(ctx) {
        ctx.body = presentSession(identity(ctx));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/console/sign-out',
      tag: TAG,
      summary: 'End this console session',
      scope: 'admin',
      success: { status: 200, schema: 'ConsoleSignedOut', description: '{ signed_out: true, sessions_ended }' },
      async handle(ctx) {
        const ended = await endSessions(db, identity(ctx), false);
        clearSessionCookie(ctx);
        ctx.body = { signed_out: true, sessions_ended: ended };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/console/sign-out-everywhere',
      tag: TAG,
      summary: 'End every session of the signed-in user, on every device',
      scope: 'admin',
      success: { status: 200, schema: 'ConsoleSignedOut', description: '{ signed_out: true, sessions_ended }' },
      async handle(ctx) {
        const ended = await endSessions(db, identity(ctx), true);
        clearSessionCookie(ctx);
        ctx.body = { signed_out: true, sessions_ended: ended };
      },
    }),
    defineRoute<{ password: string; current_password?: string }>({
      method: 'PUT',
      path: '/console/password',
      tag: TAG,
      summary:
        "Set the signed-in user's password (the current one is needed unless the session came from a sign-in link); ends their other sessions",
      scope: 'admin',
      body: 'console-password.json',
      success: {
        status: 200,
        schema: 'ConsolePasswordSet',
        description: '{ password_set: true, other_sessions_ended }',
      },
      async handle(ctx, input) {
        const who = identity(ctx);
        const problem = passwordProblem(input.password);
        if (problem) throw fieldError('password', 'too_weak', problem);
        if (who.hasPassword && !who.viaLink) {
          if (input.current_password === undefined) {
            throw fieldError('current_password', 'required', 'current_password is required to change the password.');
          }
          const user = await findUserByEmail(db, who.email);
          if (!user?.passwordHash || !(await verifyPassword(input.current_password, user.passwordHash))) {
            throw fieldError('current_password', 'wrong', 'The current password is wrong.');
          }
        }
        const hash = await hashPassword(input.password);
        await setPassword(db, who.projectId, who.userId, hash);
        // A new password shuts out whoever knew the old one: every other session ends, and this
        // one no longer counts as opened by a link.
        const ended = await deleteOtherSessions(db, who.projectId, who.userId, who.tokenHash);
        if (ended) await announceSessionsEnded(db);
        await clearViaLink(db, who.tokenHash);
        ctx.body = { password_set: true, other_sessions_ended: ended };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/console/stream-token',
      tag: TAG,
      summary: 'A one-use token, valid for a minute, for the stream auth message ({"type":"auth","api_key":token})',
      scope: 'admin',
      success: { status: 201, schema: 'ConsoleStreamToken', description: '{ token, expires_at }' },
      async handle(ctx) {
        const { token, expiresAt } = await issueToken(db, identity(ctx), 'stream');
        ctx.status = 201;
        ctx.body = { token, expires_at: expiresAt.toISOString() };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/console/members',
      tag: TAG,
      summary: "The project's console members",
      scope: 'admin',
      success: {
        status: 200,
        schema: 'ConsoleMembers',
        description: '{ members: [{ id, email, role, has_password, created_at }] }',
      },
      async handle(ctx) {
        ctx.body = { members: (await listUsers(db, ctx.state.auth.projectId)).map(presentMember) };
      },
    }),
    defineRoute<{ email: string; role?: Role }>({
      method: 'POST',
      path: '/console/members',
      tag: TAG,
      summary: 'Invite a person (owners only): they get a one-time sign-in link, valid for 24 h',
      scope: 'admin',
      body: 'console-member-invite.json',
      success: { status: 201, schema: 'ConsoleInvitation', description: '{ member, sign_in_link, expires_at }' },
      errors: { 409: 'The address has an account in another project' },
      async handle(ctx, input) {
        const who = identity(ctx);
        const invited = await inviteUser(db, who.projectId, input.email, input.role ?? 'member', ownOrigin(ctx));
        const { userId, email, role } = invited.user;
        await audit(db, ctx, 'member.invited', userId, { email, role });
        ctx.status = 201;
        ctx.body = {
          member: presentMember(invited.user),
          sign_in_link: invited.link,
          expires_at: invited.expiresAt.toISOString(),
        };
      },
    }),
    defineRoute<{ role: Role }>({
      method: 'PATCH',
      path: '/console/members/:member_id',
      tag: TAG,
      summary:
        "Change a member's role (owners only; a project keeps an owner). Taking admin from them revokes the API keys they made",
      scope: 'admin',
      body: 'console-member-role.json',
      success: { status: 200, schema: 'ConsoleMember', description: '{ id, email, role, has_password, created_at }' },
      errors: { 404: 'No such member', 409: 'The last owner cannot give up the role' },
      async handle(ctx, input) {
        const who = identity(ctx);
        const id = pathParam(ctx, 'member_id');
        await changeMember(db, ctx, who, id, input.role);
        ctx.body = presentMember((await listUsers(db, who.projectId)).find((u) => u.userId === id)!);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/console/members/:member_id/sign-in-link',
      tag: TAG,
      summary: 'A new one-time sign-in link for a member (owners only), e.g. for a forgotten password',
      scope: 'admin',
      success: { status: 201, schema: 'ConsoleSignInLink', description: '{ sign_in_link, expires_at }' },
      errors: { 404: 'No such member' },
      async handle(ctx) {
        const who = identity(ctx);
        const member = (await listUsers(db, who.projectId)).find((u) => u.userId === pathParam(ctx, 'member_id'));
        if (!member) throw notFound('console member');
        const { token, expiresAt } = await issueToken(db, member, 'signIn');
        await audit(db, ctx, 'member.sign_in_link_issued', member.userId, { email: member.email });
        ctx.status = 201;
        ctx.body = { sign_in_link: signInLink(ownOrigin(ctx), token), expires_at: expiresAt.toISOString() };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/console/members/:member_id',
      tag: TAG,
      summary:
        'Remove a console member (owners only; not the last owner): their sessions and streams end, and the API keys they made (and the keys those made) are revoked',
      scope: 'admin',
      success: { status: 200, schema: 'Deleted', description: '{ id, deleted: true }' },
      errors: { 404: 'No such member', 409: 'The last owner cannot be removed' },
      async handle(ctx) {
        const id = pathParam(ctx, 'member_id');
        await changeMember(db, ctx, identity(ctx), id);
        ctx.body = { id, deleted: true };
      },
    }),
  ];
}
