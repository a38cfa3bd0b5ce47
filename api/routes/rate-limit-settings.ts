import { getRateSettings } from '../../store/projects.js';
import type { Pool } from '../../lib/db.js';
import { windowOf } from '../rate-limit.js';
import { type Route, defineRoute } from '../route.js';

/**
 * The project's rate tier, read-only: the tier is an operator's decision (`npm run project:set`),
 * so no route lets a project's own admin key change it.
 */
export function rateLimitSettingsRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/settings/rate-limit',
      tag: 'Settings',
      summary: "The project's rate tier, its requests per hour and the current window's use (set by operators)",
      scope: 'admin',
      success: {
        status: 200,
        schema: 'RateLimitSettings',
        description: '{ tier, limit_per_hour, window }',
      },
      async handle(ctx) {
        const settings = await getRateSettings(db, ctx.state.auth.projectId);
        const { start, used } = ctx.state.rateWindow;
        const window = windowOf(start.getTime(), settings.limitPerHour, used);
        ctx.body = {
          tier: settings.tier,
          limit_per_hour: settings.limitPerHour,
          window: { start: start.toISOString(), reset: window.reset, used, remaining: window.remaining },
        };
      },
    }),
  ];
}
