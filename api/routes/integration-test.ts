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
        const { rows } = await db.query<{ delivery_id: string }>(
          `insert into webhook_deliveries (project_id, delivery_id, target, event, payload)
           select project_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'integration', 'test',
                  jsonb_build_object('event', 'test', 'timestamp', pi_utc(now()), 'user_id', null,
                                     'properties', jsonb_build_object('message', 'A test event from the admin console.'))
           from integration_webhooks where project_id = $1
           returning delivery_id`,
          [ctx.state.auth.projectId],
        );
        if (!rows[0]) throw notFound('integration endpoint');
        ctx.status = 202;
        ctx.body = { delivery_id: rows[0].delivery_id, event: 'test', status: 'pending' };
      },
    }),
  ];
}
