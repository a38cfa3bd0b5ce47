import Router from '@koa/router';
import Koa from 'koa';
import type { Admin } from 'kafkajs';
import type { Pool } from '../lib/db.js';
import type { Logger } from '../lib/log.js';
import { errorMiddleware } from './errors.js';
import type { EventPublisher } from './ingest.js';
import { eventsRoutes } from './routes/events.js';
import { healthRoutes } from './routes/health.js';

export interface AppDeps {
  db: Pool;
  admin: Admin;
  publisher: EventPublisher;
  registryUrl: string;
  log: Logger;
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = true;
  app.use(requestLog(deps.log));
  app.use(errorMiddleware(deps.log));

  const v1 = new Router({ prefix: '/v1' });
  for (const routes of [healthRoutes(deps), eventsRoutes(deps.db, deps.publisher)]) {
    v1.use(routes.routes());
  }
  app.use(v1.routes());
  // Answers 405 with Allow (and OPTIONS); the error middleware gives it the error body.
  app.use(v1.allowedMethods());
  return app;
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
