/**
 * The default traffic's answers from its tally, by the formulas of docs/metrics.md written out
 * here rather than imported: the answers must not come from the code they check (only the
 * default thresholds and weights are imported).
 */
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import { DAY_MS, byCodePoint } from '../../domain/time.js';
import type { Outcome, Tally } from './tally.js';
import type {
  Answers,
  EventContextAnswer,
  FeatureAnswer,
  FrictionFacts,
  FrictionPointAnswer,
  PageAnswer,
} from './types.js';

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

export function answersOf(tally: Tally, seed: number, users: number, events: number): Answers {
  const pages = pageAnswers(tally);
  return {
    seed,
    users,
    sessions: tally.sessions,
    events,
    pages,
    features: featureAnswers(tally),
    impression_contexts: tally.contexts,
    friction_points: frictionPoints(tally, pages),
    event_contexts: eventContexts(tally),
  };
}

function pageAnswers(tally: Tally): Record<string, PageAnswer> {
  return Object.fromEntries(
    Object.entries(tally.pages).map(([name, p]) => {
      const { idle_sum, affected, ...rest } = p;
      return [name, { ...rest, avg_idle_time: ratio(idle_sum, p.idle_gaps) / 1000, users_affected: affected.size }];
    }),
  );
}

/** docs/metrics.md §5. */
function frictionIndex(f: FrictionFacts): number {
  const { weights: w } = DEFAULT_ANALYTICS;
  const rate = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : 0);
  const total = w.dead_click + w.rage_click + w.loop + w.backtrack + w.idle;
  const sum =
    w.dead_click * rate(f.dead_clicks, f.clicks) +
    w.rage_click * rate(f.rage_clicks, f.clicks) +
    w.loop * rate(f.loop_views, f.views) +
    w.backtrack * rate(f.backtracks, f.views) +
    w.idle * rate(f.idle_ms, f.active_ms);
  return total > 0 ? sum / total : 0;
}

/** Every page and every (page, element) clicked with friction, in the API's order: index down, then page, then element. */
function frictionPoints(tally: Tally, pages: Record<string, PageAnswer>): FrictionPointAnswer[] {
  const points = Object.entries(tally.facts).flatMap(([name, { elements, ...totals }]) => {
    const p = pages[name];
    const point = (element: string | null, f: FrictionFacts, usersAffected: number): FrictionPointAnswer => ({
      page: name,
      element,
      friction_index: frictionIndex(f),
      signals: {
        dead_clicks: f.dead_clicks,
        rage_clicks: f.rage_episodes,
        confusion_loops: p?.confusion_loops ?? 0,
        avg_idle_time: p?.avg_idle_time ?? 0,
      },
      users_affected: usersAffected,
      facts: f,
    });
    // An element point: the element's clicks and users with its page's navigation and time facts.
    return [
      point(null, totals, p?.users_affected ?? 0),
      ...Object.entries(elements).map(([e, { affected, ...f }]) => point(e, { ...totals, ...f }, affected.size)),
    ];
  });
  const round9 = (x: number) => Math.round(x * 1e9) / 1e9; // the API's rounding, for its order only
  // Points without friction are left out, as the API does by default.
  return points
    .filter((p) => round9(p.friction_index) > 0)
    .sort(
      (a, b) =>
        round9(b.friction_index) - round9(a.friction_index) ||
        byCodePoint(a.page, b.page) ||
        byCodePoint(a.element ?? '', b.element ?? ''),
    );
}

function featureAnswers(tally: Tally): Record<string, FeatureAnswer> {
  const { quadrant } = DEFAULT_ANALYTICS;
  return Object.fromEntries(
    Object.entries(tally.features)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, f]) => {
        const vr = ratio(f.sessions, tally.sessions);
        const ec = ratio(f.used.size, f.saw.size);
        const discoveryMs = [...f.first_use].reduce((sum, [user, t]) => sum + t - tally.firstEvent.get(user)!, 0);
        const days = ratio(discoveryMs, f.first_use.size) / DAY_MS;
        const answer: FeatureAnswer = {
          users_saw: f.saw.size,
          users_used: f.used.size,
          sessions_visible: f.sessions,
          visibility_rate: vr,
          engagement_conversion: ec,
          avg_days_to_discovery: days,
          discovery_gap_score: ((1 - vr) * ec * days) / 30,
          quadrant: `${vr >= quadrant.visibilityRate ? 'high' : 'low'}_visibility_${ec >= quadrant.engagementConversion ? 'high' : 'low'}_usage`,
          visible_in_empty_state: ratio(f.empty, f.impressions),
          avg_data_volume_when_used: ratio(f.volume, f.uses_with_volume),
        };
        return [name, answer];
      }),
  );
}

/** docs/metrics.md §9: an occurrence's friction is the weighted share of its signal hits. */
/** docs/metrics.md §9; the CSR's quality factor is 1 with data present, 1 − the Friction Index in an empty state. */
function contextAnswer(o: Outcome, context: 'with_data_present' | 'empty_state'): EventContextAnswer {
  const { weights } = DEFAULT_ANALYTICS;
  const w = weights.dead_click + weights.rage_click + weights.loop + weights.backtrack;
  const hit =
    weights.dead_click * o.hits.dead_click +
    weights.rage_click * o.hits.rage_click +
    weights.loop * o.hits.confusion_loop +
    weights.backtrack * o.hits.backtrack;
  const successRate = ratio(o.successes, o.count);
  const frictionIndex = Math.min(1, ratio(hit, w * o.count));
  return {
    ...o,
    success_rate: successRate,
    friction_index: frictionIndex,
    contextual_success_rate: successRate * (context === 'with_data_present' ? 1 : 1 - frictionIndex),
  };
}

function eventContexts(tally: Tally): Answers['event_contexts'] {
  return Object.fromEntries(
    Object.entries(tally.outcomes).map(([name, o]) => [
      name,
      {
        total_occurrences: o.with_data_present.count + o.empty_state.count,
        with_data_present: contextAnswer(o.with_data_present, 'with_data_present'),
        empty_state: contextAnswer(o.empty_state, 'empty_state'),
      },
    ]),
  );
}
