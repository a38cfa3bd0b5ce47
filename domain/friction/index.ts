import type { AnalyticsConfig } from '../analytics-config.js';

/** Summed facts of a page (or of an element, with its page's navigation and time facts). */
export interface FrictionTotals {
  views: number;
  clicks: number;
  dead_clicks: number;
  rage_clicks: number;
  loop_views: number;
  backtracks: number;
  active_ms: number;
  idle_ms: number;
}

/** The facts a Friction Index is computed from, for code that sums them. */
export const FRICTION_FACTS = [
  'views',
  'clicks',
  'dead_clicks',
  'rage_clicks',
  'loop_views',
  'backtracks',
  'active_ms',
  'idle_ms',
] as const satisfies readonly (keyof FrictionTotals)[];

export type FrictionFact = (typeof FRICTION_FACTS)[number];

export const noFriction = (): FrictionTotals =>
  Object.fromEntries(FRICTION_FACTS.map((k) => [k, 0])) as unknown as FrictionTotals;

/** Adds `facts` into `sum`, fact by fact (indices are taken of sums, never averaged). */
export function addFriction(sum: FrictionTotals, facts: FrictionTotals): FrictionTotals {
  for (const fact of FRICTION_FACTS) sum[fact] += facts[fact];
  return sum;
}

export interface FrictionRates {
  dead_click: number;
  rage_click: number;
  loop: number;
  backtrack: number;
  idle: number;
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : 0);

/** The five rates of the Friction Index, each in [0, 1] (docs/metrics.md). */
export function frictionRates(t: FrictionTotals): FrictionRates {
  return {
    dead_click: ratio(t.dead_clicks, t.clicks),
    rage_click: ratio(t.rage_clicks, t.clicks),
    loop: ratio(t.loop_views, t.views),
    backtrack: ratio(t.backtracks, t.views),
    idle: ratio(t.idle_ms, t.active_ms),
  };
}

/** Friction Index ∈ [0, 1]: the weighted sum of the rates (weights sum to 1). */
export function frictionIndex(t: FrictionTotals, weights: AnalyticsConfig['weights']): number {
  const r = frictionRates(t);
  const total = weights.dead_click + weights.rage_click + weights.loop + weights.backtrack + weights.idle;
  const sum =
    weights.dead_click * r.dead_click +
    weights.rage_click * r.rage_click +
    weights.loop * r.loop +
    weights.backtrack * r.backtrack +
    weights.idle * r.idle;
  return total > 0 ? sum / total : 0;
}

/**
 * The names of friction signal kinds wherever an answer lists them (`common_issues` of a workflow
 * step's friction points and of an event's empty state), one spelling for both (docs/metrics.md).
 */
export const ISSUE_NAMES = {
  dead_click: 'dead_clicks',
  rage_click: 'rage_clicks',
  confusion_loop: 'confusion',
  backtrack: 'backtracking',
  idle: 'idle',
} as const;

export type IssueKind = keyof typeof ISSUE_NAMES;

/** The kinds with at least one signal, named as answers name them, most signals first (ties in ISSUE_NAMES' order). */
export function commonIssues(counts: Partial<Record<IssueKind, number>>): string[] {
  const kinds = Object.keys(ISSUE_NAMES) as IssueKind[];
  return kinds
    .filter((k) => (counts[k] ?? 0) > 0)
    .sort((a, b) => counts[b]! - counts[a]! || kinds.indexOf(a) - kinds.indexOf(b))
    .map((k) => ISSUE_NAMES[k]);
}
