import crypto from 'node:crypto';
import type { Context } from 'koa';
import { ApiError, unauthorized } from '../errors.js';
import { type HealthMonitor, healthy } from '../health.js';
import { type Route, defineRoute } from '../route.js';
import { requestWaits } from '../waits.js';

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

/**
 * Refuses whoever is not the operator. The details are the platform's, not a project's: its
 * probes' errors (addresses, broker names) and this process's histograms, which a read restarts.
 * So no project key (admin included) reads them, and without PI_OPERATOR_TOKEN nobody does.
 */
function requireOperator(ctx: Context, operatorToken: string | undefined): void {
  if (operatorToken === undefined) {
    throw new ApiError(
      404,
      'not_found',
      'GET /health/details is served to the operator only, and this service has no operator token (PI_OPERATOR_TOKEN).',
    );
  }
  const header = ctx.get('Authorization');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('The operator token is required: Authorization: Bearer <PI_OPERATOR_TOKEN>.');
  // Digests of equal length, compared in constant time: the answer's timing tells nothing of the token.
  if (!crypto.timingSafeEqual(digest(match[1]!), digest(operatorToken))) {
    throw new ApiError(
      403,
      'forbidden',
      "GET /health/details is the service operator's (PI_OPERATOR_TOKEN); project API keys, admin ones included, cannot read it.",
      { required: 'operator_token' },
    );
  }
}

/**
 * GET /health (no key): ok or degraded from the API's last probe of its dependencies, nothing
 * more (no addresses, errors or timings for anyone). GET /health/details (the operator's token,
 * `operatorToken`; unset, not served): each check with its latency and error, when it was made,
 * and this API process's event-loop delay and its requests' waits (api/waits.ts) since the
 * previous such call.
 */
export function healthRoutes(monitor: HealthMonitor, operatorToken?: string): Route[] {
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
        "The operator's view (Bearer PI_OPERATOR_TOKEN, not an API key): each dependency's last probe (status, latency, error), and the answering process's event-loop delay and requests' waits on Postgres and Kafka since the previous such call",
      success: {
        status: 200,
        schema: 'HealthDetails',
        description: '{ status, checked_at, checks: { postgres, kafka, registry }, event_loop, waits }',
      },
      errors: {
        401: 'No operator token sent',
        403: 'Not the operator token (project API keys, admin ones included)',
        404: 'The service has no operator token (PI_OPERATOR_TOKEN): the details are not served',
      },
      async handle(ctx) {
        requireOperator(ctx, operatorToken);
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
