import type { AnalyticsConfig } from '../analytics-config.js';
import { type FrictionTotals, frictionRates } from './index.js';

/** A page's summed facts over a date range, with the users it affected. */
export interface PageRow extends FrictionTotals {
  page: string;
  loops: number;
  idle_gaps: number;
  rage_episodes: number;
  users_affected: number;
}
/** An element's summed click facts over a date range, with the users who had a signal on it. */
export interface ElementRow {
  page: string;
  element: string;
  clicks: number;
  dead_clicks: number;
  rage_clicks: number;
  rage_episodes: number;
  users_affected: number;
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
