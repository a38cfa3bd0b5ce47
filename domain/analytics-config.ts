import crypto from 'node:crypto';

/**
 * Every analytics threshold and weight, in one place (docs/metrics.md explains each).
 * Projects override any of them through projects.settings.analytics; see `analyticsConfig`.
 */
export const DEFAULT_ANALYTICS = {
  session: {
    /** A gap of this long or more between two events starts a new session (PostHog, GA, Amplitude). */
    gapMs: 30 * 60_000,
    /** A session never spans more than this; a longer one is cut. */
    maxMs: 24 * 60 * 60_000,
  },
  rage: {
    /** At least this many clicks on one element … */
    minClicks: 3,
    /** … each at most this long after the previous (PostHog, Mixpanel) … */
    maxIntervalMs: 1000,
    /** … and at most this far from the previous click when both carry coordinates (posthog-js). */
    maxDistancePx: 30,
    /** element_type values whose repeated clicks are text selection, not rage. */
    selectionTypes: ['text', 'paragraph', 'heading', 'label'],
  },
  dead: {
    /** Without a ui_response flag, a click is dead when no non-click event follows within this. */
    responseWindowMs: 2500,
  },
  loop: {
    /** A→B→A→B: this many page views alternating between two pages. */
    minAlternatingViews: 4,
  },
  backtrack: {
    /** Back to the previous page within this long of leaving it (Clarity's "quick back"). */
    maxMs: 10_000,
  },
  idle: {
    /** A gap longer than this between two events of a session is idle time … */
    minGapMs: 10_000,
    /** … counted up to this much per gap in the idle share. */
    capMs: 60_000,
  },
  /** Friction Index weights; they sum to 1 so the index stays in [0, 1]. */
  weights: { dead_click: 0.25, rage_click: 0.25, loop: 0.2, backtrack: 0.15, idle: 0.15 },
  quadrant: { visibilityRate: 0.5, engagementConversion: 0.5 },
  /**
   * A page's daily Friction Index at or above this, with at least this many users affected, raises
   * one alert that day, when events received at most maxReceiptAgeMs ago moved it there (a replay
   * of older events raises none).
   */
  alerts: { frictionIndex: 0.4, minUsersAffected: 3, maxReceiptAgeMs: 24 * 60 * 60_000 },
  /**
   * User properties whose values are pre-aggregated segments: `segment=plan:pro` and the detail's
   * segmented_usage read answer tables for these, per-user rows for any other property.
   */
  segments: { properties: ['plan'] },
  /** An event occurrence fails when a friction signal hits its page within this long after it. */
  contextSuccessWindowMs: 10_000,
  workflows: {
    /** Goals asked for through GET /analytics/workflows?goal= that a project may have mined at once … */
    maxRequestedGoals: 50,
    /** … each forgotten when nobody asked for it this many days. */
    requestedGoalTtlDays: 30,
  },
} as const;

type Widen<T> = T extends readonly (infer U)[]
  ? readonly Widen<U>[]
  : T extends number
    ? number
    : T extends string
      ? string
      : { [K in keyof T]: Widen<T[K]> };
export type AnalyticsConfig = Widen<typeof DEFAULT_ANALYTICS>;
type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
export type AnalyticsOverrides = DeepPartial<AnalyticsConfig>;

/** Defaults with a project's overrides laid over them (objects merge, values replace). */
export function analyticsConfig(overrides: AnalyticsOverrides = {}): AnalyticsConfig {
  const merge = (base: unknown, over: unknown): unknown => {
    if (over === undefined) return base;
    if (base === null || typeof base !== 'object' || Array.isArray(base)) return over;
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [key, value] of Object.entries(over as Record<string, unknown>)) {
      if (Object.hasOwn(out, key)) out[key] = merge(out[key], value);
    }
    return out;
  };
  return merge(DEFAULT_ANALYTICS, overrides) as AnalyticsConfig;
}

const versions = new WeakMap<AnalyticsConfig, string>();

/**
 * The name of an effective config (its JSON's digest: `analyticsConfig` gives the defaults' key
 * order whatever the overrides'). A stored session names the one its contribution was computed
 * with, so the contribution can be computed again from its events exactly (store/analytics-configs.ts).
 */
export function configVersion(config: AnalyticsConfig): string {
  let version = versions.get(config);
  if (version === undefined) {
    version = crypto.createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 24);
    versions.set(config, version);
  }
  return version;
}
