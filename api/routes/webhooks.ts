import crypto from 'node:crypto';
import type { Pool } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { fieldError, notFound } from '../errors.js';
import { PAGING_PARAMS, pageOf, paging } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface WebhookRow {
  webhook_id: string;
  url: string;
  events: string[];
  created_at: Date;
}

const present = (row: WebhookRow) => ({
  id: row.webhook_id,
  url: row.url,
  events: row.events,
  created_at: row.created_at.toISOString(),
});

/** Deliveries go to public HTTPS endpoints only; credentials in the URL would leak into logs. */
function checkUrl(raw: string): string {
  const url = new URL(raw);
  if (url.protocol !== 'https:') throw fieldError('url', 'https_required', 'url must be an https:// address.');
  if (url.username || url.password) throw fieldError('url', 'credentials_in_url', 'url must not carry credentials.');
  return url.toString();
}

export function webhookRoutes(db: Pool): Route[] {
  return [
    defineRoute<{ url: string; events: string[] }>({
      method: 'POST',
      path: '/webhooks',
      tag: 'Webhooks',
      summary: 'Subscribe an HTTPS endpoint to service events; the signing secret is shown once',
      scope: 'admin',
      body: 'webhook-create.json',
      success: { status: 201, description: '{ id, url, events, secret (whsec_…, Standard Webhooks), created_at }' },
      async handle(ctx, input) {
        const url = checkUrl(input.url);
        const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
        const { rows } = await db.query<WebhookRow>(
          `insert into webhook_subscriptions (project_id, webhook_id, url, events, secret)
           values ($1, $2, $3, $4, $5) returning *`,
          [ctx.state.auth.projectId, newId('wh'), url, input.events, secret],
        );
        ctx.status = 201;
        ctx.body = { ...present(rows[0]!), secret };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/webhooks',
      tag: 'Webhooks',
      summary: 'List webhook subscriptions (without secrets)',
      scope: 'admin',
      query: PAGING_PARAMS,
      success: { status: 200, description: '{ webhooks, total, page, per_page }' },
      async handle(ctx) {
        const paged = paging(ctx);
        const { projectId } = ctx.state.auth;
        const { rows, total } = await pageOf<WebhookRow>(
          db,
          {
            columns: '*',
            from: 'webhook_subscriptions',
            where: 'project_id = $1',
            order: 'created_at desc, webhook_id',
          },
          [projectId],
          paged,
        );
        ctx.body = { webhooks: rows.map(present), total, page: paged.page, per_page: paged.perPage };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/webhooks/:webhook_id',
      tag: 'Webhooks',
      summary: 'Remove a webhook subscription',
      scope: 'admin',
      success: { status: 200, description: '{ id, deleted: true }' },
      errors: { 404: 'No such subscription in this project' },
      async handle(ctx) {
        const { rowCount } = await db.query(
          'delete from webhook_subscriptions where project_id = $1 and webhook_id = $2',
          [ctx.state.auth.projectId, pathParam(ctx, 'webhook_id')],
        );
        if (rowCount === 0) throw notFound('webhook subscription');
        ctx.body = { id: pathParam(ctx, 'webhook_id'), deleted: true };
      },
    }),
  ];
}
