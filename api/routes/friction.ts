import type { Pool } from '../../lib/db.js';
import { type FrictionTotals, frictionIndex } from '../../lib/friction-index.js';
import { frictionTrend, round } from '../../lib/metrics.js';
import { DATE_RANGE_PARAMS, dateRange } from '../analytics-params.js';
import { type ElementRow, type PageRow, pageTotals, recommendedActions } from '../../lib/friction-pages.js';
import { projectAnalyticsConfig } from '../../lib/project-config.js';
import { numberParam, stringParam } from '../query.js';
import { type Route, defineRoute } from '../route.js';

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function frictionRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/friction',
      tag: 'Analytics',
      summary: 'Friction points by page and element, highest Friction Index first',
      scope: 'analytics:read',
      query: [
        { name: 'page', description: 'only this page or route', schema: { type: 'string' } },
        {
          name: 'min_friction_index',
          description: 'only points at or above this index (0–1)',
          schema: { type: 'number' },
        },
        ...DATE_RANGE_PARAMS,
      ],
      success: { status: 200, description: '{ friction_points, date_range }' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const range = dateRange(ctx);
        const page = stringParam(ctx, 'page') ?? null;
        const min = numberParam(ctx, 'min_friction_index') ?? 0;
        const config = await projectAnalyticsConfig(db, projectId);
        const pages = new Map((await pageTotals(db, projectId, range.start, range.end, page)).map((p) => [p.page, p]));
        const { rows: elements } = await db.query<ElementRow>(
          `select page, element, sum(clicks)::int as clicks, sum(dead_clicks)::int as dead_clicks,
                  sum(rage_clicks)::int as rage_clicks, sum(rage_episodes)::int as rage_episodes
           from friction_element_daily where project_id = $1 and day between $2 and $3 and ($4::text is null or page = $4)
           group by page, element`,
          [projectId, range.start, range.end, page],
        );
        const point = (p: PageRow, e: ElementRow | undefined) => {
          // An element point: its own clicks with its page's navigation and time facts.
          const totals = e ? { ...p, ...e } : p;
          return {
            page: p.page,
            element: e?.element ?? '*',
            friction_index: round(frictionIndex(totals, config.weights)),
            signals: {
              dead_clicks: totals.dead_clicks,
              rage_clicks: totals.rage_episodes,
              confusion_loops: p.loops,
              avg_idle_time: p.idle_gaps > 0 ? round(p.idle_ms / p.idle_gaps / 1000) : 0,
            },
            users_affected: p.users_affected,
            recommended_actions: recommendedActions(p.page, e?.element ?? null, totals, config),
          };
        };
        const points = [
          ...[...pages.values()].map((p) => point(p, undefined)),
          ...elements.flatMap((e) => (pages.has(e.page) ? [point(pages.get(e.page)!, e)] : [])),
        ]
          .filter((p) => p.friction_index >= min)
          .sort(
            (a, b) =>
              b.friction_index - a.friction_index || byCodePoint(a.page, b.page) || byCodePoint(a.element, b.element),
          );
        ctx.body = { friction_points: points, date_range: range };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/friction/trends',
      tag: 'Analytics',
      summary: 'Daily Friction Index per page over the last 28 days, with trend and alert level',
      scope: 'analytics:read',
      success: { status: 200, description: '{ trends }' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const config = await projectAnalyticsConfig(db, projectId);
        const { rows } = await db.query<FrictionTotals & { page: string; day: string }>(
          `select page, to_char(day, 'YYYY-MM-DD') as day, views, clicks, dead_clicks, rage_clicks, loop_views, backtracks,
                  active_ms::float8 as active_ms, idle_ms::float8 as idle_ms
           from friction_page_daily
           where project_id = $1 and day > (now() at time zone 'utc')::date - 28
           order by page, day`,
          [projectId],
        );
        const byPage = new Map<string, { date: string; friction_index: number }[]>();
        for (const row of rows) {
          const history = byPage.get(row.page) ?? [];
          history.push({ date: row.day, friction_index: round(frictionIndex(row, config.weights)) });
          byPage.set(row.page, history);
        }
        ctx.body = {
          trends: [...byPage].map(([page, history]) => ({
            workflow: page,
            friction_history: history,
            ...frictionTrend(history),
          })),
        };
      },
    }),
  ];
}
