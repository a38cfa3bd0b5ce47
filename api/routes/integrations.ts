import type { Pool } from '../../lib/db.js';
import type { TargetPolicy } from '../../lib/targets.js';
import { audit } from '../../store/audit-log.js';
import {
  type IntegrationRow,
  deleteIntegration,
  integration,
  upsertIntegration,
} from '../../store/integration-webhooks.js';
import { notFound } from '../errors.js';
import { type Route, defineRoute } from '../route.js';
import { checkWebhookUrl, newWebhookSecret } from './webhooks.js';
import { SEALED, type SecretBox } from '../../lib/secret-box.js';

export const INTEGRATION_EVENTS = ['chats', 'walkthrough-progress'] as const;

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
        const row = await upsertIntegration(db, {
          projectId: ctx.state.auth.projectId,
          url,
          events: input.events ?? INTEGRATION_EVENTS,
          sealedSecret: secrets.seal(secret, SEALED.webhookSecret),
          rotate: input.rotate_secret === true,
        });
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
        const row = await integration(db, ctx.state.auth.projectId);
        if (!row) throw notFound('integration endpoint');
        ctx.body = present(row);
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
        if (!(await deleteIntegration(db, ctx.state.auth.projectId))) throw notFound('integration endpoint');
        await audit(db, ctx, 'integration.disconnected');
        ctx.body = { deleted: true };
      },
    }),
  ];
}
