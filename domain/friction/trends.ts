import type { AnalyticsConfig } from '../analytics-config.js';
import { type FrictionTotals, addFriction, frictionIndex, noFriction } from './index.js';
import { round } from '../metrics.js';
import { ELLIPSIS, OTHER } from '../workflows/mining.js';

/** One friction_page_daily row: a page's facts on one UTC day (YYYY-MM-DD). */
export type PageDay = FrictionTotals & { page: string; day: string };

export interface HistoryEntry {
  date: string;
  friction_index: number;
}

/**
 * The Friction Index of each day the rows cover, oldest first: the rows of a day are summed
 * fact by fact before the index is taken (a ratio of sums, never a mean of indices).
 */
export function dailyHistory(rows: PageDay[], weights: AnalyticsConfig['weights']): HistoryEntry[] {
  const byDay = new Map<string, FrictionTotals>();
  for (const row of rows) {
    byDay.set(row.day, addFriction(byDay.get(row.day) ?? noFriction(), row));
  }
  return [...byDay]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, totals]) => ({ date, friction_index: round(frictionIndex(totals, weights)) }));
}

/**
 * The steps of a workflow's path whose page facts count, each once: a page visited twice
 * (a → b → a) weighs as much as once, since its daily row already holds every visit. The
 * markers "..." (capped path) and "other" (folded paths) are not steps. Steps that are not
 * pages (features, custom events) have no friction_page_daily rows, so they add nothing.
 */
export function workflowPages(path: string[]): string[] {
  return [...new Set(path.filter((step) => step !== ELLIPSIS && step !== OTHER))];
}

/** "goal: step → step → …", the form a workflow is named in trends. */
export function workflowName(goal: string, path: string[]): string {
  return `${goal}: ${path.length > 0 ? path.join(' → ') : '(goal at session start)'}`;
}

/** The daily history of one workflow, from the daily rows grouped by page. */
export function workflowHistory(
  path: string[],
  rowsByPage: ReadonlyMap<string, PageDay[]>,
  weights: AnalyticsConfig['weights'],
): HistoryEntry[] {
  return dailyHistory(
    workflowPages(path).flatMap((page) => rowsByPage.get(page) ?? []),
    weights,
  );
}

/** Rows grouped by page, in their order. */
export function byPage(rows: PageDay[]): Map<string, PageDay[]> {
  const pages = new Map<string, PageDay[]>();
  for (const row of rows) {
    const list = pages.get(row.page) ?? [];
    list.push(row);
    pages.set(row.page, list);
  }
  return pages;
}
