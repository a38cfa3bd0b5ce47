import { queueIntegrationTest } from '../../store/webhook-deliveries.js';
import type { Pool } from '../../lib/db.js';
import { notFound } from '../errors.js';
import { type Route, defineRoute } from '../route.js';

/**
 * "Send test event" of Settings → Integrations → Webhooks: one signed delivery of event `test` to
 * the connected endpoint, queued in the outbox like every delivery (so it is retried, logged and
 * can be redelivered the same way).
 */
export function integrationTestRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/settings/integrations/webhook/test',
      tag: 'Integrations',
      summary: 'Queue a signed test delivery (event "test") to the connected integration endpoint',
      scope: 'admin',
      success: {
        status: 202,
        schema: 'IntegrationTest',
        description: '{ delivery_id, event: "test", status: "pending" }',
      },
      errors: { 404: 'No endpoint connected' },
      async handle(ctx) {
        const deliveryId = await queueIntegrationTest(db, ctx.state.auth.projectId);
        if (!deliveryId) throw notFound('integration endpoint');
        ctx.status = 202;
        ctx.body = { delivery_id: deliveryId, event: 'test', status: 'pending' };
      },
    }),
  ];
}
