import { type Scope, createKey, revokeKey } from '../../store/api-keys.js';
import type { Pool } from '../../lib/db.js';
import { outlastLeases } from '../../lib/lease.js';
import { allowedOriginsOf } from '../cors.js';
import { notFound } from '../errors.js';
import { PAGING_PARAMS, pageOf, paging } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface KeyRow {
  key_id: string;
  name: string;
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  allowed_origins: string[] | null;
}

const present = (row: KeyRow) => ({
  id: row.key_id,
  name: row.name,
  scopes: row.scopes,
  created_at: row.created_at.toISOString(),
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
      summary: "List the project's API keys (never the keys themselves)",
      scope: 'admin',
      query: PAGING_PARAMS,
      success: { status: 200, schema: 'ApiKeyList', description: '{ api_keys, total, page, per_page }' },
      async handle(ctx) {
        const paged = paging(ctx);
        const { projectId } = ctx.state.auth;
        const { rows, total } = await pageOf<KeyRow>(
          db,
          {
            columns: 'key_id, name, scopes, created_at, last_used_at, revoked_at, allowed_origins',
            from: 'api_keys',
            where: 'project_id = $1',
            order: 'created_at desc, key_id',
          },
          [projectId],
          paged,
        );
        ctx.body = { api_keys: rows.map(present), total, page: paged.page, per_page: paged.perPage };
      },
    }),
    defineRoute<{ name?: string; scopes: Scope[]; allowed_origins?: string[] | null }>({
      method: 'POST',
      path: '/api-keys',
      tag: 'API keys',
      summary: 'Create an API key; the key is in this response only',
      scope: 'admin',
      body: 'api-key-create.json',
      success: {
        status: 201,
        schema: 'ApiKeyCreated',
        description: '{ id, key, name, scopes, created_at, revoked_at: null, allowed_origins }',
      },
      async handle(ctx, input) {
        const { projectId } = ctx.state.auth;
        const origins = allowedOriginsOf(input.allowed_origins, input.scopes);
        const { keyId, key } = await createKey(db, projectId, input.scopes, input.name ?? '', origins);
        const { rows } = await db.query<KeyRow>(
          `select key_id, name, scopes, created_at, last_used_at, revoked_at, allowed_origins
           from api_keys where project_id = $1 and key_id = $2`,
          [projectId, keyId],
        );
        ctx.status = 201;
        ctx.body = { ...present(rows[0]!), key };
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
        const revokedAt = await revokeKey(db, ctx.state.auth.projectId, pathParam(ctx, 'key_id'));
        if (!revokedAt) throw notFound('API key');
        // API processes answer from a key read up to a lease ago: none does once this one ends.
        await outlastLeases();
        ctx.body = { id: pathParam(ctx, 'key_id'), revoked: true, revoked_at: revokedAt.toISOString() };
      },
    }),
  ];
}
