import type { AnalyticsConfig } from '../../lib/analytics-config.js';
import type { Pool } from '../../lib/db.js';
import { type FrictionTotals, frictionIndex, frictionRates } from '../../lib/friction-index.js';
import { frictionTrend } from '../../lib/metrics.js';
import { DATE_RANGE_PARAMS, dateRange, projectAnalyticsConfig } from '../analytics-params.js';
import { numberParam, stringParam } from '../query.js';
import { type Route, defineRoute } from '../route.js';

interface PageRow extends FrictionTotals {
  page: string;
  loops: number;
  idle_gaps: number;
  rage_episodes: number;
  users_affected: number;
}
interface ElementRow {
  page: string;
  element: string;
  clicks: number;
  dead_clicks: number;
  rage_clicks: number;
  rage_episodes: number;
}

const round = (x: number) => Math.round(x * 1e9) / 1e9;
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rules behind recommended_actions (docs/metrics.md). */
export function recommendedActions(
  page: string,
  element: string | null,
  t: PageRow | (ElementRow & PageRow),
  config: AnalyticsConfig,
): string[] {
  const actions: string[] = [];
  const target = element ?? page;
  if (t.dead_clicks > 0) actions.push(`Make ${target} respond visibly to clicks, or stop it looking clickable.`);
  if (t.rage_episodes > 0) actions.push(`Check ${target} for slow or missing feedback: users click it repeatedly.`);
  if (t.loops > 0)
    actions.push(`Users go back and forth between ${page} and another page: make the next step clearer.`);
  if (t.backtracks > 0)
    actions.push(
      `Users leave ${page} within ${config.backtrack.maxMs / 1000} s and go back: check it meets their expectation.`,
    );
  if (frictionRates(t).idle >= 0.3) actions.push(`Users pause long on ${page}: simplify it or add guidance.`);
  return actions;
}

export async function pageTotals(
  db: Pool,
  projectId: string,
  start: string,
  end: string,
  page: string | null,
): Promise<PageRow[]> {
  const { rows } = await db.query<PageRow>(
    `select p.page, sum(views)::int as views, sum(clicks)::int as clicks, sum(dead_clicks)::int as dead_clicks,
            sum(rage_clicks)::int as rage_clicks, sum(rage_episodes)::int as rage_episodes, sum(loops)::int as loops,
            sum(loop_views)::int as loop_views, sum(backtracks)::int as backtracks, sum(active_ms)::float8 as active_ms,
            sum(idle_ms)::float8 as idle_ms, sum(idle_gaps)::int as idle_gaps,
            (select count(distinct u.user_id)::int from friction_page_users u
             where u.project_id = $1 and u.page = p.page and u.day between $2 and $3) as users_affected
     from friction_page_daily p
     where p.project_id = $1 and p.day between $2 and $3 and ($4::text is null or p.page = $4)
     group by p.page`,
    [projectId, start, end, page],
  );
  return rows;
}

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
