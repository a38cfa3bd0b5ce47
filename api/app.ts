import Router from '@koa/router';
import Koa from 'koa';
import type { Admin } from 'kafkajs';
import type { Pool } from '../lib/db.js';
import type { Logger } from '../lib/log.js';
import { onTheWire } from '../domain/metrics.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { TargetPolicy } from '../lib/targets.js';
import type { AuthThrottle } from './auth-throttle.js';
import { NO_PROXIES, type ProxyTrust, clientAddress } from './client-address.js';
import { ingestCors } from './cors.js';
import { consoleRoutes } from './console/routes.js';
import { consoleStatic } from './console/static.js';
import { errorMiddleware } from './errors.js';
import type { HealthMonitor } from './health.js';
import { buildOpenApi } from './openapi.js';
import type { Publisher } from './publisher.js';
import { UserSealing } from './sealing.js';
import { type Route, defineRoute, mount } from './route.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { auditLogRoutes } from './routes/audit-log.js';
import { behaviouralCohortRoutes } from './routes/behavioural-cohorts.js';
import { cohortRoutes } from './routes/cohorts.js';
import { eventContextRoutes } from './routes/event-context.js';
import { eventRoutes } from './routes/events.js';
import { type ExportLimits, exportRoutes } from './routes/exports.js';
import { featureRoutes } from './routes/features.js';
import { frictionRoutes } from './routes/friction.js';
import { healthRoutes } from './routes/health.js';
import { integrationTestRoutes } from './routes/integration-test.js';
import { integrationRoutes } from './routes/integrations.js';
import { jobAnalyticsRoutes } from './routes/job-analytics.js';
import { jobRoutes } from './routes/jobs.js';
import { reportRoutes } from './routes/reports.js';
import { nameCapRoutes } from './routes/name-caps.js';
import { rateLimitSettingsRoutes } from './routes/rate-limit-settings.js';
import { settingsRoutes } from './routes/settings.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';
import { workflowRoutes } from './routes/workflows.js';
import { loadTrackerScript, trackerScript } from './tracker-script.js';

export interface AppDeps {
  db: Pool;
  /** Streamed exports: their own small pool, and how long a reader may take nothing before it is dropped. */
  exports: ExportLimits;
  admin: Admin;
  publisher: Publisher;
  registryUrl: string;
  /** Seals webhook secrets and warehouse passwords before they are stored (PI_SECRET_KEYS). */
  secrets: SecretBox;
  /** Which webhook targets the SSRF guard lets through (WEBHOOK_ALLOW_HOSTS). */
  targets: TargetPolicy;
  /** Whose X-Forwarded-For names the client (PI_TRUSTED_PROXIES); default none: the socket's peer. */
  proxies?: ProxyTrust;
  /** Failed authentications per client address (api/auth-throttle.ts). */
  authThrottle: AuthThrottle;
  /** The API's last probe of its dependencies (health routes). */
  health: HealthMonitor;
  /** The operator's token for GET /health/details (PI_OPERATOR_TOKEN); without it the details are not served. */
  operatorToken?: string;
  /** How long GET /analytics/workflows waits for the worker to mine a goal asked for the first time. */
  workflowWaitMs: number;
  log: Logger;
}

/** Every route of /v1, the OpenAPI document included (it describes itself too). */
export function routeTable(deps: AppDeps): Route[] {
  const sealing = new UserSealing(deps.db);
  const routes = [
    ...healthRoutes(deps.health, deps.operatorToken),
    ...eventRoutes(deps.publisher, sealing, deps.log),
    ...userRoutes(deps.db, deps.publisher, sealing),
    ...jobRoutes(deps.db),
    ...jobAnalyticsRoutes(deps.db),
    ...cohortRoutes(deps.db),
    ...webhookRoutes(deps.db, deps.targets, deps.secrets),
    ...integrationRoutes(deps.db, deps.targets, deps.secrets),
    ...integrationTestRoutes(deps.db),
    ...apiKeyRoutes(deps.db),
    ...auditLogRoutes(deps.db),
    ...reportRoutes(deps.db),
    ...exportRoutes(deps.db, deps.exports, deps.secrets),
    ...featureRoutes(deps.db),
    ...behaviouralCohortRoutes(deps.db),
    ...frictionRoutes(deps.db),
    ...eventContextRoutes(deps.db),
    ...settingsRoutes(deps.db),
    ...rateLimitSettingsRoutes(deps.db),
    ...nameCapRoutes(deps.db),
    ...workflowRoutes(deps.db, deps.workflowWaitMs),
    ...consoleRoutes(deps.db),
  ];
  let document: Record<string, unknown> | undefined;
  routes.push(
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      tag: 'Service',
      summary: 'This OpenAPI 3.1 document (no key needed)',
      success: { status: 200, schema: 'OpenApiDocument', description: 'OpenAPI 3.1 document' },
      // eslint-disable-next-line @typescript-eslint/require-await
      async handle(ctx) {
        document ??= buildOpenApi(routes);
        ctx.body = document;
      },
    }),
  );
  return routes;
}

export function createApp(deps: AppDeps): { app: Koa; router: Router } {
  const app = new Koa();
  const proxies = deps.proxies ?? NO_PROXIES;
  // X-Forwarded-Proto and -Host are believed only when proxies are configured; the client address
  // is ours to pick (clientAddress), never Koa's, which believes any X-Forwarded-For when proxy is on.
  app.proxy = !('hops' in proxies && proxies.hops === 0);
  app.use(async (ctx, next) => {
    ctx.request.ip = clientAddress(ctx.req, proxies);
    await next();
  });
  app.use(requestLog(deps.log));
  app.use(errorMiddleware(deps.log));
  app.use(trackerScript(loadTrackerScript(), deps.log));
  app.use(ingestCors());
  // The admin console's files (/console); its API calls are the /v1 routes below.
  app.use(consoleStatic());
  const router = new Router({ prefix: '/v1' });
  mount(router, routeTable(deps), deps.db, deps.authThrottle);
  // Every JSON answer's figures rounded one way (domain/metrics.ts, onTheWire), whichever route made them.
  app.use(async (ctx, next) => {
    await next();
    // Streams, buffers and text pass through: only plain objects and arrays are walked.
    if (ctx.body !== null && typeof ctx.body === 'object') ctx.body = onTheWire(ctx.body);
  });
  app.use(router.routes());
  // Answers 405 with Allow (and OPTIONS); the error middleware gives it the error body.
  app.use(router.allowedMethods());
  // Errors after the answer started (a streamed export whose query failed, a client gone) reach
  // Koa, not the error middleware: log them as our lines instead of Koa's stack dumps.
  app.on('error', (err: Error & { code?: string }) =>
    deps.log.warn({ message: err.message, code: err.code }, 'response failed after it started'),
  );
  return { app, router };
}

function requestLog(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      log.debug(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(performance.now() - start),
          project: ctx.state.auth?.projectId,
        },
        'request',
      );
    }
  };
}
