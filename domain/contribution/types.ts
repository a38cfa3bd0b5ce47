/**
 * The shapes of what one session contributes to the analytics tables. Shared by the pipeline,
 * which computes them, and by user erasure (store/user-data.ts), which subtracts them again.
 */

export type SignalKind = 'rage_click' | 'dead_click' | 'confusion_loop' | 'backtrack' | 'idle';

/** One friction episode, with the raw timings it was judged on (thresholds can be re-tuned by replay). */
export interface FrictionSignal {
  /** Deterministic: session, kind and first event — a re-run replaces, never duplicates. */
  signal_id: string;
  kind: SignalKind;
  page: string | null;
  element: string | null;
  /** epoch ms of the first event of the episode */
  at: number;
  /** rage: intervals between clicks; dead: response delay (or gap to the next event); idle: the gap;
   *  backtrack: time on the page left; loop: times between the alternating views */
  timings_ms: number[];
  /** clicks in a burst, views in a loop, 1 otherwise */
  count: number;
  message_ids: string[];
}

/** What one session contributes to a page's Friction Index. */
export interface PageFacts {
  views: number;
  clicks: number;
  dead_clicks: number;
  /** clicks that belong to a rage burst */
  rage_clicks: number;
  rage_episodes: number;
  loops: number;
  /** views of the page that are part of a loop */
  loop_views: number;
  backtracks: number;
  /** Σ min(gap, cap) over the gaps that start on the page */
  active_ms: number;
  /** the same over gaps longer than the idle threshold */
  idle_ms: number;
  idle_gaps: number;
}

export interface ElementFacts {
  clicks: number;
  dead_clicks: number;
  rage_clicks: number;
  rage_episodes: number;
}

/** What one session says about one feature. */
export interface SessionFeatureFacts {
  feature: string;
  impressions: number;
  uses: number;
  /** impressions shown while the UI was in an empty state */
  empty_state_impressions: number;
  /** Σ and count of ui_context.data_volume on uses that carry it */
  data_volume_sum: number;
  data_volume_n: number;
  first_seen_at: number;
  first_used_at: number | null;
  /** how the first use of the session came about (classifyDiscovery) */
  first_use_source: DiscoveryMethod | null;
}

export type DiscoveryMethod = 'browsing' | 'power_user_exploration' | 'recommendation' | 'documentation';

export type ContextKind = 'with_data_present' | 'empty_state';

export interface ContextFacts {
  event: string;
  context: ContextKind;
  count: number;
  successes: number;
  dead_click: number;
  rage_click: number;
  confusion_loop: number;
  backtrack: number;
}

/**
 * Everything one session adds to the materialized tables. Stored with the session, so when a
 * late event changes the session the old contribution is subtracted and the new one added:
 * the tables are always the sum over the current sessions, whatever the arrival order.
 */
export interface SessionContribution {
  session_id: string;
  user_id: string;
  /** UTC day (YYYY-MM-DD) of the session's start; every fact is counted on that day */
  day: string;
  started_at: number;
  ended_at: number;
  events: number;
  pages: (PageFacts & { page: string })[];
  elements: (ElementFacts & { page: string; element: string })[];
  features: SessionFeatureFacts[];
  contexts: ContextFacts[];
  signals: FrictionSignal[];
}
