import {
  type ListedKey,
  type Scope,
  createKey,
  keyPage,
  listedKey,
  revokeKey,
  setKeyCreator,
} from '../../store/api-keys.js';
import { audit } from '../../store/audit-log.js';
import { type Pool, inTransaction } from '../../lib/db.js';
import { outlastLeases } from '../../lib/lease.js';
import { allowedOriginsOf } from '../cors.js';
import { notFound } from '../errors.js';
import { PAGING_PARAMS, pageFields, paging } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

/** Who made the key: a console member, another key, or nobody recorded (an operator's `npm run key:create`). */
function creator(row: ListedKey) {
  if (row.created_by_member) return { type: 'member', id: row.created_by_member, email: row.created_by_email };
  if (row.created_by_key) return { type: 'api_key', id: row.created_by_key, email: null };
  return null;
}

const present = (row: ListedKey) => ({
  id: row.key_id,
  name: row.name,
  scopes: row.scopes,
  created_at: row.created_at.toISOString(),
  created_by: creator(row),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
  allowed_origins: row.allowed_origins,
});

/** Settings → API Keys: list, create (the key is shown once), revoke. */
export function apiKeyRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api-keys',
      tag: 'API keys',
      summary: "List the project's API keys (never the keys themselves), with who made each",
      scope: 'admin',
      query: PAGING_PARAMS,
      success: {
        status: 200,
        schema: 'ApiKeyList',
        description: '{ api_keys, total, page_number, page, per_page, next }',
      },
      async handle(ctx) {
        const paged = paging(ctx);
        const { projectId } = ctx.state.auth;
        const { rows, total } = await keyPage(db, projectId, paged);
        ctx.body = { api_keys: rows.map(present), ...pageFields(paged, total) };
      },
    }),
    defineRoute<{ name?: string; scopes: Scope[]; allowed_origins?: string[] | null }>({
      method: 'POST',
      path: '/api-keys',
      tag: 'API keys',
      summary:
        'Create an API key; the key is in this response only. Records who made it (the console member or the key): removing that member revokes it',
      scope: 'admin',
      body: 'api-key-create.json',
      success: {
        status: 201,
        schema: 'ApiKeyCreated',
        description: '{ id, key, name, scopes, created_at, created_by, revoked_at: null, allowed_origins }',
      },
      async handle(ctx, input) {
        const { projectId, keyId: callerKey } = ctx.state.auth;
        const member = ctx.state.console?.userId ?? null;
        const origins = allowedOriginsOf(input.allowed_origins, input.scopes);
        const { row, key } = await inTransaction(db, async (client) => {
          const made = await createKey(client, projectId, input.scopes, input.name ?? '', origins);
          await setKeyCreator(client, projectId, made.keyId, { member, key: member ? null : callerKey });
          const row = await listedKey(client, projectId, made.keyId);
          await audit(client, ctx, 'api_key.created', made.keyId, {
            name: input.name ?? '',
            scopes: input.scopes,
            allowed_origins: origins,
          });
          return { row: row!, key: made.key };
        });
        ctx.status = 201;
        ctx.body = { ...present(row), key };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api-keys/:key_id',
      tag: 'API keys',
      summary:
        "Revoke an API key (answered once no API process accepts it any more; the key's open streams close within seconds)",
      scope: 'admin',
      success: { status: 200, schema: 'ApiKeyRevoked', description: '{ id, revoked: true, revoked_at }' },
      errors: { 404: 'No such key in this project' },
      async handle(ctx) {
        const keyId = pathParam(ctx, 'key_id');
        const revokedAt = await revokeKey(db, ctx.state.auth.projectId, keyId);
        if (!revokedAt) throw notFound('API key');
        await audit(db, ctx, 'api_key.revoked', keyId);
        // API processes answer from a key read up to a lease ago: none does once this one ends.
        await outlastLeases();
        ctx.body = { id: keyId, revoked: true, revoked_at: revokedAt.toISOString() };
      },
    }),
  ];
}
