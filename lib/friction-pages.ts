import type { AnalyticsConfig } from './analytics-config.js';
import type { Pool } from './db.js';
import { type FrictionTotals, frictionRates } from './friction-index.js';

export interface PageRow extends FrictionTotals {
  page: string;
  loops: number;
  idle_gaps: number;
  rage_episodes: number;
  users_affected: number;
}
export interface ElementRow {
  page: string;
  element: string;
  clicks: number;
  dead_clicks: number;
  rage_clicks: number;
  rage_episodes: number;
}

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
            (select coalesce(sum(r.users), 0)::int from friction_page_reach r
             where r.project_id = $1 and r.page = p.page and r.day between $2 and $3 and r.prev_day < $2) as users_affected
     from friction_page_daily p
     where p.project_id = $1 and p.day between $2 and $3 and ($4::text is null or p.page = $4)
     group by p.page`,
    [projectId, start, end, page],
  );
  return rows;
}
