/**
 * The bookkeeping of the default traffic's answers, kept as it is generated: signal facts are added
 * by each planted pattern (from the plan), views, clicks, active time and each event's success are
 * counted from each session's events when it ends, by the rules of docs/metrics.md written out here
 * (only the default thresholds are imported).
 */
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import type { EventContextAnswer, FrictionFacts, PageAnswer } from './types.js';

export type UiContext = 'with_data_present' | 'empty_state';
/** The signal kinds that fail an event occurrence (docs/metrics.md §9: idle never does). */
export type FailingKind = keyof EventContextAnswer['hits'];

/** An event of the session being generated, as the answers need it. */
export interface Logged {
  id: string;
  t: number;
  event: string;
  page: string;
  element?: string;
  context: UiContext;
}

/** A signal the plan puts in the session being generated: its page, its first event's time and its events. */
export interface PlantedSignal {
  kind: FailingKind;
  page: string;
  at: number;
  ids: string[];
}

export type ElementFacts = Pick<FrictionFacts, 'clicks' | 'dead_clicks' | 'rage_clicks' | 'rage_episodes'>;
export type PageTally = PageAnswer & { idle_sum: number; affected: Set<string> };
/** An element's facts and the users with a planted signal on it. */
export type ElementTally = ElementFacts & { affected: Set<string> };
export type PageFacts = FrictionFacts & { elements: Record<string, ElementTally> };
export interface FeatureTally {
  saw: Set<string>;
  used: Set<string>;
  first_use: Map<string, number>;
  sessions: number;
  impressions: number;
  empty: number;
  volume: number;
  uses_with_volume: number;
}
/** Occurrences of one event name in one UI context. */
export interface Outcome {
  count: number;
  successes: number;
  hits: EventContextAnswer['hits'];
}

const noOutcome = (): Outcome => ({
  count: 0,
  successes: 0,
  hits: { dead_click: 0, rage_click: 0, confusion_loop: 0, backtrack: 0 },
});

/**
 * Counters by page, feature and event name, each made on first use (the answers keep that order).
 * The accessors are bound, so the generators can take them apart (`const { page, fact } = tally`).
 */
export class Tally {
  readonly pages: Record<string, PageTally> = {};
  readonly features: Record<string, FeatureTally> = {};
  /** occurrences of feature_impression by UI context */
  readonly contexts = { with_data_present: 0, empty_state: 0 };
  /** Friction facts: signal facts from the plan, navigation, clicks and time from the emitted sessions. */
  readonly facts: Record<string, PageFacts> = {};
  readonly outcomes: Record<string, Record<UiContext, Outcome>> = {};
  /** each user's first event time */
  readonly firstEvent = new Map<string, number>();
  sessions = 0;

  readonly page = (name: string): PageTally =>
    (this.pages[name] ??= {
      dead_clicks: 0,
      rage_clicks: 0,
      confusion_loops: 0,
      backtracks: 0,
      idle_gaps: 0,
      avg_idle_time: 0,
      users_affected: 0,
      idle_sum: 0,
      affected: new Set(),
    });

  readonly feature = (name: string): FeatureTally =>
    (this.features[name] ??= {
      saw: new Set(),
      used: new Set(),
      first_use: new Map(),
      sessions: 0,
      impressions: 0,
      empty: 0,
      volume: 0,
      uses_with_volume: 0,
    });

  readonly fact = (name: string): PageFacts =>
    (this.facts[name] ??= {
      views: 0,
      clicks: 0,
      dead_clicks: 0,
      rage_clicks: 0,
      rage_episodes: 0,
      loop_views: 0,
      backtracks: 0,
      active_ms: 0,
      idle_ms: 0,
      elements: {},
    });

  readonly elementFact = (name: string, element: string): ElementTally =>
    (this.fact(name).elements[element] ??= {
      clicks: 0,
      dead_clicks: 0,
      rage_clicks: 0,
      rage_episodes: 0,
      affected: new Set(),
    });

  readonly outcome = (event: string, context: UiContext): Outcome =>
    (this.outcomes[event] ??= { with_data_present: noOutcome(), empty_state: noOutcome() })[context];

  noteEvent(user: string, t: number): void {
    this.firstEvent.set(user, Math.min(this.firstEvent.get(user) ?? t, t));
  }

  /**
   * Tallies a session just generated: views (repeats merged), clicks and active time per page, and whether each
   * event succeeded — it fails when it is part of a planted signal, or when one starts on its page within the
   * window after it. Normal browsing has no signal, so only planted ones can fail an event.
   */
  endSession(log: readonly Logged[], signals: readonly PlantedSignal[]): void {
    const { idle, contextSuccessWindowMs } = DEFAULT_ANALYTICS;
    const ordered = [...log].sort((a, b) => a.t - b.t);
    let lastView: string | undefined;
    ordered.forEach((e, k) => {
      const f = this.fact(e.page);
      if (e.event === 'page_view') {
        if (e.page !== lastView) f.views++;
        lastView = e.page;
      }
      if (e.event === 'click') {
        f.clicks++;
        if (e.element !== undefined) this.elementFact(e.page, e.element).clicks++;
      }
      const next = ordered[k + 1];
      if (next) f.active_ms += Math.min(next.t - e.t, idle.capMs);
      const hitBy = new Set(
        signals
          .filter(
            (s) => s.ids.includes(e.id) || (s.page === e.page && s.at >= e.t && s.at - e.t <= contextSuccessWindowMs),
          )
          .map((s) => s.kind),
      );
      const o = this.outcome(e.event, e.context);
      o.count++;
      if (hitBy.size === 0) o.successes++;
      for (const kind of hitBy) o.hits[kind]++;
    });
  }
}
