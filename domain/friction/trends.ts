import type { AnalyticsConfig } from '../analytics-config.js';
import { type FrictionTotals, addFriction, frictionIndex, noFriction } from './index.js';
import { type AlertLevel, frictionTrend, round } from '../metrics.js';
import { byCodePoint } from '../time.js';
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

/** A workflow's daily history and the trend drawn from it. */
export type WorkflowTrend = { friction_history: HistoryEntry[] } & ReturnType<typeof frictionTrend>;

/**
 * Workflows' daily histories and trends, from the daily rows grouped by page. A workflow's history
 * depends only on the set of its pages that have rows, and a goal's thousands of workflows share
 * the few pages of a product: each set is computed once (the same answer objects are shared).
 */
export class WorkflowTrends {
  private readonly bySet = new Map<string, WorkflowTrend>();

  constructor(
    private readonly rowsByPage: ReadonlyMap<string, PageDay[]>,
    private readonly weights: AnalyticsConfig['weights'],
  ) {}

  of(path: string[]): WorkflowTrend {
    const pages = workflowPages(path)
      .filter((page) => this.rowsByPage.has(page))
      .sort(byCodePoint);
    const key = pages.join('\n');
    let trend = this.bySet.get(key);
    if (!trend) {
      const history = dailyHistory(
        pages.flatMap((page) => this.rowsByPage.get(page)!),
        this.weights,
      );
      trend = { friction_history: history, ...frictionTrend(history) };
      this.bySet.set(key, trend);
    }
    return trend;
  }
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

const ALERT_RANK: Record<AlertLevel, number> = { critical: 3, warning: 2, info: 1, none: 0 };

type Attention = { alert_level: AlertLevel; percent_change: number };

/** The highest alert level first, then the steepest rise: a stable sort of a list in name order by it is `byAttention`. */
export function byAlert(a: Attention, b: Attention): number {
  return ALERT_RANK[b.alert_level] - ALERT_RANK[a.alert_level] || b.percent_change - a.percent_change;
}

/**
 * The order trends are listed and paged in: the ones that need attention first (highest alert
 * level, then the steepest rise), then by name, so pages are stable.
 */
export function byAttention(a: Attention & { workflow: string }, b: Attention & { workflow: string }): number {
  return byAlert(a, b) || byCodePoint(a.workflow, b.workflow);
}
