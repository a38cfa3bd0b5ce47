import type { AnalyticsConfig } from './analytics-config.js';

/** Spec metric formulas over aggregated counts (docs/metrics.md). All ratios are decimals in [0, 1]. */

export const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/** VR: sessions where the feature was visible / all sessions. */
export const visibilityRate = (sessionsVisible: number, sessions: number) => ratio(sessionsVisible, sessions);

/** EC: users who used the feature / users who saw it. */
export const engagementConversion = (usersUsed: number, usersSaw: number) => ratio(usersUsed, usersSaw);

/** DGS = (1 − VR) × EC × (avg_days_to_discovery / 30). */
export const discoveryGapScore = (vr: number, ec: number, avgDaysToDiscovery: number) =>
  (1 - vr) * ec * (avgDaysToDiscovery / 30);

export type Quadrant =
  'high_visibility_high_usage' | 'high_visibility_low_usage' | 'low_visibility_high_usage' | 'low_visibility_low_usage';

export function quadrant(vr: number, ec: number, t: AnalyticsConfig['quadrant']): Quadrant {
  return `${vr >= t.visibilityRate ? 'high' : 'low'}_visibility_${ec >= t.engagementConversion ? 'high' : 'low'}_usage`;
}

/** CSR = success rate × context quality factor, the factor clamped to [0, 1]. */
export const contextualSuccessRate = (successRate: number, qualityFactor: number) =>
  successRate * Math.min(1, Math.max(0, qualityFactor));

/**
 * The context quality factor of an event's occurrences in one UI context: 1 with data present (the
 * context the event is built for); in an empty state, 1 − the context's Friction Index, i.e. the
 * weighted share of its occurrences not hit by friction (docs/metrics.md §9).
 */
export const contextQualityFactor = (context: 'with_data_present' | 'empty_state', frictionIndex: number) =>
  context === 'with_data_present' ? 1 : 1 - frictionIndex;

export type Trend = 'increasing' | 'decreasing' | 'stable';
export type AlertLevel = 'none' | 'info' | 'warning' | 'critical';

/**
 * Trend of a daily Friction Index series: percent change between the mean of the last 7 days
 * and the mean of the 7 before; ±10 % or more is a trend. Alert: critical when the index of the
 * last week is ≥ 0.5 and increasing, warning when increasing by ≥ 25 % or the index is ≥ 0.3,
 * info when increasing, none otherwise.
 */
export function frictionTrend(history: { date: string; friction_index: number }[]): {
  trend: Trend;
  percent_change: number;
  alert_level: AlertLevel;
} {
  const sorted = [...history].sort((a, b) => a.date.localeCompare(b.date));
  const recent = sorted.slice(-7);
  const before = sorted.slice(-14, -7);
  const mean = (xs: { friction_index: number }[]) =>
    xs.length ? xs.reduce((s, x) => s + x.friction_index, 0) / xs.length : 0;
  const now = mean(recent);
  const then = mean(before);
  const percent = then > 0 ? ((now - then) / then) * 100 : now > 0 && before.length > 0 ? 100 : 0;
  const trend: Trend = percent >= 10 ? 'increasing' : percent <= -10 ? 'decreasing' : 'stable';
  const alert: AlertLevel =
    trend === 'increasing' && now >= 0.5
      ? 'critical'
      : (trend === 'increasing' && percent >= 25) || now >= 0.3
        ? 'warning'
        : trend === 'increasing'
          ? 'info'
          : 'none';
  return { trend, percent_change: Math.round(percent * 100) / 100, alert_level: alert };
}

/** Answers carry 9 decimals: enough for any ratio, and free of float noise in comparisons. */
export const round = (x: number) => Math.round(x * 1e9) / 1e9;

/** Members whose values are the customer's own data (user and event properties): sent as received. */
const CUSTOMER_DATA = 'properties';

/**
 * `value` as it leaves the service (REST answers, the stream, webhooks): every number that is not
 * whole rounded to 9 decimals (`round`), so one figure reads the same on every route, whichever
 * computed it; what sits under `properties` is the customer's and is left exactly as received.
 */
export function onTheWire(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) || !Number.isFinite(value) ? value : round(value);
  if (Array.isArray(value)) return value.map(onTheWire);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) out[key] = key === CUSTOMER_DATA ? member : onTheWire(member);
  return out;
}
