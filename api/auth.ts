import type { Context, Middleware } from 'koa';
import { type ResolvedKey, type Scope, resolveKey } from '../store/api-keys.js';
import type { Pool } from '../lib/db.js';
import { Lease } from '../lib/lease.js';
import type { AuthThrottle } from './auth-throttle.js';
import { refuseForeignOrigin } from './cors.js';
import { type ConsoleScope, ROLES, type Role, consoleNeed, roleHolds } from './console/roles.js';
import { type ConsoleIdentity, authenticateConsole } from './console/sessions.js';
import { ApiError, forbidden, unauthorized } from './errors.js';
import { touchKey } from './key-usage.js';
import { requestWaits } from './waits.js';

declare module 'koa' {
  interface DefaultState {
    auth: ResolvedKey;
  }
}

/**
 * Resolves `Authorization: Bearer <key>` to its project and scopes, or answers 401; a browser key
 * used from an origin outside its allow-list answers 403. Without the header, an admin console
 * session cookie acts for its member, with what their role allows (api/console/roles.ts). A client
 * address that failed too often this minute gets 429 before anything is looked up (`throttle`).
 */
export function authenticate(db: Pool, throttle: AuthThrottle): Middleware {
  const keys = new KeyLeases(db);
  return async (ctx, next) => {
    // The client address as PI_TRUSTED_PROXIES allows (api/app.ts sets it).
    const address = ctx.ip;
    throttle.check(address);
    const caller = await resolveCaller(db, keys, ctx).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 401) throttle.failed(address);
      throw err;
    });
    ctx.state.auth = caller.auth;
    if ('identity' in caller) {
      ctx.state.console = caller.identity;
    } else {
      refuseForeignOrigin(ctx.get('Origin'), caller.auth.allowedOrigins);
      touchKey(db, caller.auth.keyId);
    }
    await next();
  };
}

/** The caller's key, or its console session; throws 401. */
async function resolveCaller(
  db: Pool,
  keys: KeyLeases,
  ctx: Context,
): Promise<{ auth: ResolvedKey } | { auth: ResolvedKey; identity: ConsoleIdentity }> {
  const header = ctx.get('Authorization');
  const session = header ? undefined : await authenticateConsole(db, ctx);
  if (session) return session;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized(header ? 'The Authorization header must be "Bearer <API_KEY>".' : undefined);
  const auth = await keys.resolve(match[1]!);
  if (!auth) throw unauthorized('The API key is invalid or has been revoked.');
  return { auth };
}

/** Keys a process keeps at most; the oldest asked for first go first. */
const KEPT_KEYS = 10_000;

/**
 * Keys as resolved under lease (lib/lease.ts): a busy key costs one read a second per process, not
 * one per request, which queued behind a busy Postgres with the request's other reads. A
 * revocation or a new rate tier answers once every lease has expired, so no key is served past
 * its lease: a request whose key read did not answer within it gets 503 (`LeaseUnanswered`), not
 * a longer wait (docs/adr/0005).
 */
class KeyLeases {
  private readonly leases = new Map<string, Lease<ResolvedKey | undefined>>();

  constructor(private readonly db: Pool) {}

  resolve(key: string): Promise<ResolvedKey | undefined> {
    let lease = this.leases.get(key);
    if (!lease) {
      if (this.leases.size >= KEPT_KEYS) this.leases.delete(this.leases.keys().next().value!);
      lease = new Lease(() => requestWaits.timed('auth', resolveKey(this.db, key)));
      this.leases.set(key, lease);
    }
    return lease.get();
  }
}

/**
 * A key needs `scope` (`admin` holds every scope); a console member needs what the route asks of
 * people (api/console/roles.ts), which their role holds or not.
 */
export function requireScope(route: { method: string; path: string; scope: Scope }): Middleware {
  const need = consoleNeed(route);
  return async (ctx, next) => {
    const member = ctx.state.console;
    if (member) {
      if (!roleHolds(member.role, need)) throw roleRefusal(member.role, need);
    } else {
      const { scopes } = ctx.state.auth;
      if (!scopes.includes(route.scope) && !scopes.includes('admin')) throw forbidden(route.scope);
    }
    await next();
  };
}

function roleRefusal(role: Role, need: ConsoleScope): ApiError {
  const allowed = ROLES.filter((r) => roleHolds(r, need));
  return new ApiError(
    403,
    'forbidden',
    `A console ${role} may not do this; it takes the role ${allowed.join(' or ')}.`,
    { reason: 'role', role, required_scope: need, allowed_roles: allowed },
  );
}
