import type { Middleware } from 'koa';
import { type ResolvedKey, type Scope, resolveKey } from '../store/api-keys.js';
import type { Pool } from '../lib/db.js';
import { refuseForeignOrigin } from './cors.js';
import { authenticateConsole } from './console/sessions.js';
import { forbidden, unauthorized } from './errors.js';
import { touchKey } from './key-usage.js';

declare module 'koa' {
  interface DefaultState {
    auth: ResolvedKey;
  }
}

/**
 * Resolves `Authorization: Bearer <key>` to its project and scopes, or answers 401; a browser key
 * used from an origin outside its allow-list answers 403. Without the header, an admin console
 * session cookie acts as an admin key of its project (api/console).
 */
export function authenticate(db: Pool): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const session = header ? undefined : await authenticateConsole(db, ctx);
    if (session) {
      ctx.state.auth = session.auth;
      ctx.state.console = session.identity;
      await next();
      return;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized(header ? 'The Authorization header must be "Bearer <API_KEY>".' : undefined);
    const resolved = await resolveKey(db, match[1]!);
    if (!resolved) throw unauthorized('The API key is invalid or has been revoked.');
    ctx.state.auth = resolved;
    refuseForeignOrigin(ctx.get('Origin'), resolved.allowedOrigins);
    touchKey(db, resolved.keyId);
    await next();
  };
}

/** `admin` holds every scope. */
export function requireScope(scope: Scope): Middleware {
  return async (ctx, next) => {
    const { scopes } = ctx.state.auth;
    if (!scopes.includes(scope) && !scopes.includes('admin')) throw forbidden(scope);
    await next();
  };
}
