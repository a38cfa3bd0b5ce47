import type { Pool } from '../../lib/db.js';
import type { TargetPolicy } from '../../lib/targets.js';
import { audit } from '../../store/audit-log.js';
import { notFound } from '../errors.js';
import { type Route, defineRoute } from '../route.js';
import { checkWebhookUrl, newWebhookSecret } from './webhooks.js';
import { SEALED, type SecretBox } from '../../lib/secret-box.js';

export const INTEGRATION_EVENTS = ['chats', 'walkthrough-progress'] as const;

interface IntegrationRow {
  url: string;
  events: string[];
  created_at: Date;
  updated_at: Date;
}

const present = (row: IntegrationRow) => ({
  url: row.url,
  events: row.events,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const PATH = '/settings/integrations/webhook';

/** The project's outbound integration endpoint: one per project, signed like subscriptions. */
export function integrationRoutes(db: Pool, targets: TargetPolicy, secrets: SecretBox): Route[] {
  return [
    defineRoute<{ url: string; events?: string[]; rotate_secret?: boolean }>({
      method: 'PUT',
      path: PATH,
      tag: 'Integrations',
      summary: 'Connect (or change) the outbound integration endpoint; the signing secret is shown when issued',
      scope: 'admin',
      body: 'integration-webhook.json',
      success: {
        status: 200,
        schema: 'Integration',
        description: '{ url, events, created_at, updated_at, secret? }',
        also: { 201: 'first connected: with the secret' },
      },
      async handle(ctx, input) {
        const url = checkWebhookUrl(input.url, targets);
        const secret = newWebhookSecret();
        const { rows } = await db.query<IntegrationRow & { created: boolean; issued: boolean }>(
          `insert into integration_webhooks as i (project_id, url, events, secret) values ($1, $2, $3, $4)
           on conflict (project_id) do update
             set url = excluded.url, events = excluded.events, updated_at = now(),
                 secret = case when $5 then excluded.secret else i.secret end
           returning url, events, created_at, updated_at, (xmax = 0) as created, (xmax = 0 or $5) as issued`,
          [
            ctx.state.auth.projectId,
            url,
            input.events ?? INTEGRATION_EVENTS,
            secrets.seal(secret, SEALED.webhookSecret),
            input.rotate_secret === true,
          ],
        );
        const row = rows[0]!;
        await audit(db, ctx, row.created ? 'integration.connected' : 'integration.changed', null, { ...input, url });
        ctx.status = row.created ? 201 : 200;
        ctx.body = row.issued ? { ...present(row), secret } : present(row);
      },
    }),
    defineRoute({
      method: 'GET',
      path: PATH,
      tag: 'Integrations',
      summary: 'The outbound integration endpoint (without its secret)',
      scope: 'admin',
      success: { status: 200, schema: 'Integration', description: '{ url, events, created_at, updated_at }' },
      errors: { 404: 'No endpoint connected' },
      async handle(ctx) {
        const { rows } = await db.query<IntegrationRow>('select * from integration_webhooks where project_id = $1', [
          ctx.state.auth.projectId,
        ]);
        if (!rows[0]) throw notFound('integration endpoint');
        ctx.body = present(rows[0]);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: PATH,
      tag: 'Integrations',
      summary: 'Disconnect the outbound integration endpoint (pending deliveries to it are given up)',
      scope: 'admin',
      success: { status: 200, schema: 'Disconnected', description: '{ deleted: true }' },
      errors: { 404: 'No endpoint connected' },
      async handle(ctx) {
        const { rowCount } = await db.query('delete from integration_webhooks where project_id = $1', [
          ctx.state.auth.projectId,
        ]);
        if (rowCount === 0) throw notFound('integration endpoint');
        await audit(db, ctx, 'integration.disconnected');
        ctx.body = { deleted: true };
      },
    }),
  ];
}
