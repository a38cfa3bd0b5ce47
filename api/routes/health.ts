import { type HealthMonitor, healthy } from '../health.js';
import { type Route, defineRoute } from '../route.js';
import { requestWaits } from '../waits.js';

/**
 * GET /health (no key): ok or degraded from the API's last probe of its dependencies, nothing
 * more (no addresses, errors or timings for anyone). GET /health/details (admin): each check with
 * its latency and error, when it was made, and this API process's event-loop delay and its
 * requests' waits (api/waits.ts) since the previous such call.
 */
export function healthRoutes(monitor: HealthMonitor): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      tag: 'Service',
      summary: 'ok, or degraded when Postgres, Kafka or the schema registry failed the last probe (no key needed)',
      success: {
        status: 200,
        schema: 'Health',
        description: '{ status: ok }',
        also: { 503: '{ status: degraded }' },
      },
      async handle(ctx) {
        const ok = healthy((await monitor.checks()).checks);
        ctx.status = ok ? 200 : 503;
        ctx.body = { status: ok ? 'ok' : 'degraded' };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/health/details',
      tag: 'Service',
      summary:
        "Each dependency's last probe (status, latency, error), and the answering process's event-loop delay and requests' waits on Postgres and Kafka since the previous such call",
      scope: 'admin',
      success: {
        status: 200,
        schema: 'HealthDetails',
        description: '{ status, checked_at, checks: { postgres, kafka, registry }, event_loop, waits }',
      },
      async handle(ctx) {
        const { at, checks } = await monitor.checks();
        ctx.body = {
          status: healthy(checks) ? 'ok' : 'degraded',
          checked_at: new Date(at).toISOString(),
          checks,
          event_loop: monitor.eventLoop(),
          waits: requestWaits.report(),
        };
      },
    }),
  ];
}
