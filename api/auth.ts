import type { Middleware } from 'koa';
import { type ResolvedKey, type Scope, resolveKey } from '../lib/api-keys.js';
import type { Pool } from '../lib/db.js';
import { forbidden, unauthorized } from './errors.js';

declare module 'koa' {
  interface DefaultState {
    auth: ResolvedKey;
  }
}

/** Resolves `Authorization: Bearer <key>` to its project and scopes, or answers 401. */
export function authenticate(db: Pool): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized(header ? 'The Authorization header must be "Bearer <API_KEY>".' : undefined);
    const resolved = await resolveKey(db, match[1]!);
    if (!resolved) throw unauthorized('The API key is invalid or has been revoked.');
    ctx.state.auth = resolved;
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
