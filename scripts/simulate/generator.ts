/**
 * A seeded generator of traffic for a fictional project-management app, with friction patterns
 * planted in known numbers, and the answers they imply. Normal browsing is built to be free of
 * friction (clicks answered by the UI, no returns to a page, no gaps over 10 s), so every signal
 * the pipeline finds comes from a planted pattern — and the answers are counted here, from the
 * plan, not by running the pipeline's code. Signal facts come from the plan; views, clicks, active
 * time and each event's success are tallied from each session's events as it is emitted, by the
 * rules of docs/metrics.md written out here (only the default thresholds and weights are imported).
 */
import { DEFAULT_ANALYTICS } from '../../lib/analytics-config.js';
import type { TrackedEventInput } from '../../lib/tracked-event.js';

/** The ways a client marks an impression's view as empty, or as showing data (docs/events.md). */
const EMPTY_CONTEXTS: Record<string, boolean>[] = [
  { empty_state: true, data_present: false },
  { empty_state: true },
  { data_present: false },
];
const DATA_CONTEXTS: Record<string, boolean>[] = [
  { empty_state: false, data_present: true },
  { data_present: true },
  {},
];

export interface SimulationOptions {
  seed: number;
  users: number;
  /** sessions per user */
  sessions: number;
  /** epoch ms: sessions start after this (use a time within the range you will query) */
  start: number;
  /** spread of session starts after `start` */
  spanMs: number;
  planted: { rage: number; dead: number; loops: number; backtracks: number; idle: number };
  /** Opt-in: users of their own (`scn-` ids) with planted workflows, job completions and behavioural groups. */
  scenarios?: ScenarioOptions;
}

export interface ScenarioOptions {
  /** users in each behavioural group (5 to 200) */
  perGroup: number;
}

export interface PageAnswer {
  dead_clicks: number;
  rage_clicks: number;
  confusion_loops: number;
  backtracks: number;
  idle_gaps: number;
  avg_idle_time: number;
  users_affected: number;
}

export interface FeatureAnswer {
  users_saw: number;
  users_used: number;
  sessions_visible: number;
  visibility_rate: number;
  engagement_conversion: number;
  /** mean over users_used of (first use − the user's first event), in days */
  avg_days_to_discovery: number;
  discovery_gap_score: number;
  quadrant: `${'high' | 'low'}_visibility_${'high' | 'low'}_usage`;
  visible_in_empty_state: number;
  avg_data_volume_when_used: number;
}

/** The facts a Friction Index is computed from (docs/metrics.md §4–5), as planted and emitted. */
export interface FrictionFacts {
  views: number;
  clicks: number;
  dead_clicks: number;
  /** clicks inside rage bursts */
  rage_clicks: number;
  rage_episodes: number;
  loop_views: number;
  backtracks: number;
  active_ms: number;
  idle_ms: number;
}

/** A point of GET /analytics/friction (docs/metrics.md §6) with default weights; element "*" is the page. */
export interface FrictionPointAnswer {
  page: string;
  element: string;
  friction_index: number;
  signals: { dead_clicks: number; rage_clicks: number; confusion_loops: number; avg_idle_time: number };
  users_affected: number;
  /** the point's facts: an element's clicks with its page's navigation and time facts */
  facts: FrictionFacts;
}

/** Occurrences of one event name in one UI context (docs/metrics.md §9) with default weights and window. */
export interface EventContextAnswer {
  count: number;
  successes: number;
  success_rate: number;
  /** occurrences hit by a signal of each kind */
  hits: { dead_click: number; rage_click: number; confusion_loop: number; backtrack: number };
  friction_index: number;
}

export interface Answers {
  seed: number;
  users: number;
  sessions: number;
  events: number;
  pages: Record<string, PageAnswer>;
  features: Record<string, FeatureAnswer>;
  /** occurrences of feature_impression by UI context */
  impression_contexts: { with_data_present: number; empty_state: number };
  /** every page and every (page, element) clicked, in the API's order: index down, then page, then element */
  friction_points: FrictionPointAnswer[];
  /** per event name emitted, as GET /analytics/context/events/{name} reports it */
  event_contexts: Record<
    string,
    { total_occurrences: number; with_data_present: EventContextAnswer; empty_state: EventContextAnswer }
  >;
  /**
   * With `scenarios`: what the scenario users imply. Every other key counts only the other users.
   * These answers are exact for a project whose only traffic is the scenarios' (`users: 0`): user_share,
   * completion rates, the job's targets and the clustering all count every user of the project.
   */
  scenarios?: ScenarioAnswers;
}

export type BehaviouralGroup = 'power' | 'struggler' | 'casual' | 'explorer';

/** A workflow of the scenarios' goal as GET /analytics/workflows reports it (docs/metrics.md, "Workflows"). */
export interface WorkflowAnswer {
  path: string[];
  occurrences: number;
  frequency: number;
  users: number;
  user_share: number;
  completion_rate: number;
  /** seconds */
  avg_time: number;
}

export interface ScenarioAnswers {
  /** every scenario user id starts with it */
  user_prefix: string;
  users: number;
  sessions: number;
  events: number;
  /** the goal's workflows, most occurrences first (ties by JSON of the path), "other" last */
  workflows: { goal: string; attempts: number; completions: number; workflows: WorkflowAnswer[] };
  /** a job to create (and activate) before the traffic is sent, and its numbers (docs/metrics.md, "12. Jobs") */
  job: {
    goal: string;
    target_audience: { type: 'segment'; criteria: string };
    users_targeted: number;
    users_completed: number;
    completion_rate: number;
    /** seconds */
    avg_time_to_completion: number;
  };
  /** the planted group of every scenario user */
  groups: Record<string, BehaviouralGroup>;
}

export interface Simulation {
  users: { user_id: string; properties: Record<string, unknown> }[];
  events: TrackedEventInput[];
  answers: Answers;
}

/** mulberry32: small, fast, seedable. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PAGES: Record<string, { features: string[]; elements: string[] }> = {
  '/dashboard': { features: ['share', 'widgets'], elements: ['#refresh', '#chart'] },
  '/projects': { features: ['templates'], elements: ['#new-project', '#search'] },
  '/reports': { features: ['export', 'filters'], elements: ['#export-btn', '#date-picker'] },
  '/settings': { features: ['invite'], elements: ['#save', '#avatar'] },
  '/billing': { features: ['upgrade'], elements: ['#plan-card'] },
};
const PAGE_NAMES = Object.keys(PAGES);
const PLANS = ['free', 'pro', 'enterprise'];
const SESSION_GAP_MS = 2 * 60 * 60_000; // sessions of a user are far apart (> 30 min)
const PLANTED_GAP_MS = 45 * 60_000;
const DAY_MS = 86_400_000;

type UiContext = 'with_data_present' | 'empty_state';
/** The signal kinds that fail an event occurrence (docs/metrics.md §9: idle never does). */
type FailingKind = keyof EventContextAnswer['hits'];

/** An event of the session being generated, as the answers need it. */
interface Logged {
  id: string;
  t: number;
  event: string;
  page: string;
  element?: string;
  context: UiContext;
}

/** A signal the plan puts in the session being generated: its page, its first event's time and its events. */
interface PlantedSignal {
  kind: FailingKind;
  page: string;
  at: number;
  ids: string[];
}

type ElementFacts = Pick<FrictionFacts, 'clicks' | 'dead_clicks' | 'rage_clicks' | 'rage_episodes'>;

/** docs/metrics.md §5, written out here rather than imported: the answers must not come from the code they check. */
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

export function simulate(options: SimulationOptions): Simulation {
  const rnd = random(options.seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const { idle, weights, contextSuccessWindowMs, quadrant } = DEFAULT_ANALYTICS;

  const users = Array.from({ length: options.users }, (_, i) => ({
    user_id: `sim-${options.seed}-u${i}`,
    properties: { plan: pick(PLANS), company: `company-${i % 7}` },
  }));
  const events: TrackedEventInput[] = [];
  let counter = 0;
  // The session being generated, and the signals planted in it; `endSession` tallies and clears them.
  let log: Logged[] = [];
  let plantedSignals: PlantedSignal[] = [];
  const firstEvent = new Map<string, number>();
  /** Emits an event; `context` is how the plan meant its ui_context (a page's view empty or with data). */
  const emit = (
    user: string,
    t: number,
    event: string,
    properties: Record<string, unknown>,
    context: UiContext = 'with_data_present',
  ): string => {
    const id = `sim-${options.seed}-${counter++}`;
    events.push({ user_id: user, event, properties, timestamp: new Date(t).toISOString(), message_id: id });
    log.push({
      id,
      t,
      event,
      page: properties.page as string,
      element: properties.element as string | undefined,
      context,
    });
    firstEvent.set(user, Math.min(firstEvent.get(user) ?? t, t));
    return id;
  };

  // Answers, counted from the plan.
  const pages: Record<string, PageAnswer & { idle_sum: number; affected: Set<string> }> = {};
  const page = (name: string) =>
    (pages[name] ??= {
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
  const features: Record<
    string,
    {
      saw: Set<string>;
      used: Set<string>;
      first_use: Map<string, number>;
      sessions: number;
      impressions: number;
      empty: number;
      volume: number;
      uses_with_volume: number;
    }
  > = {};
  const feature = (name: string) =>
    (features[name] ??= {
      saw: new Set(),
      used: new Set(),
      first_use: new Map(),
      sessions: 0,
      impressions: 0,
      empty: 0,
      volume: 0,
      uses_with_volume: 0,
    });
  const contexts = { with_data_present: 0, empty_state: 0 };
  // Friction facts: signal facts from the plan, navigation, clicks and time from the emitted sessions.
  const facts: Record<string, FrictionFacts & { elements: Record<string, ElementFacts> }> = {};
  const fact = (name: string) =>
    (facts[name] ??= {
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
  const elementFact = (name: string, element: string) =>
    (fact(name).elements[element] ??= { clicks: 0, dead_clicks: 0, rage_clicks: 0, rage_episodes: 0 });
  const outcomes: Record<
    string,
    Record<UiContext, { count: number; successes: number; hits: EventContextAnswer['hits'] }>
  > = {};
  const outcome = (event: string, context: UiContext) => {
    const empty = () => ({
      count: 0,
      successes: 0,
      hits: { dead_click: 0, rage_click: 0, confusion_loop: 0, backtrack: 0 },
    });
    return (outcomes[event] ??= { with_data_present: empty(), empty_state: empty() })[context];
  };
  let sessions = 0;

  /**
   * Tallies the session just generated: views (repeats merged), clicks and active time per page, and whether each
   * event succeeded — it fails when a planted signal (other than one it is part of) starts on its page within the
   * window after it. Normal browsing has no signal, so only planted ones can fail an event.
   */
  const endSession = () => {
    const ordered = [...log].sort((a, b) => a.t - b.t);
    let lastView: string | undefined;
    ordered.forEach((e, k) => {
      const f = fact(e.page);
      if (e.event === 'page_view') {
        if (e.page !== lastView) f.views++;
        lastView = e.page;
      }
      if (e.event === 'click') {
        f.clicks++;
        if (e.element !== undefined) elementFact(e.page, e.element).clicks++;
      }
      const next = ordered[k + 1];
      if (next) f.active_ms += Math.min(next.t - e.t, idle.capMs);
      const hitBy = new Set(
        plantedSignals
          .filter(
            (s) => s.page === e.page && s.at >= e.t && s.at - e.t <= contextSuccessWindowMs && !s.ids.includes(e.id),
          )
          .map((s) => s.kind),
      );
      const o = outcome(e.event, e.context);
      o.count++;
      if (hitBy.size === 0) o.successes++;
      for (const kind of hitBy) o.hits[kind]++;
    });
    log = [];
    plantedSignals = [];
  };

  // Each user's session start times; planted patterns get sessions of their own.
  const slots: { user: string; t: number }[] = [];
  for (const user of users) {
    let t = options.start + Math.floor(rnd() * (options.spanMs / 4));
    for (let s = 0; s < options.sessions; s++) {
      slots.push({ user: user.user_id, t });
      t += SESSION_GAP_MS + Math.floor(rnd() * (options.spanMs / (2 * options.sessions)));
    }
  }

  /** A friction-free visit: page view, then actions 3–8 s apart; returns the time it ends. */
  const visit = (user: string, t: number, name: string, visible: Set<string>): number => {
    emit(user, t, 'page_view', { page: name });
    for (let a = between(1, 3); a > 0; a--) {
      t += between(3, 8) * 1000;
      const f = pick(PAGES[name]!.features);
      const roll = rnd();
      if (roll < 0.45) {
        const empty = rnd() < 0.3;
        // Clients say "empty" with either flag or both; the answers count each form as empty.
        emit(
          user,
          t,
          'feature_impression',
          { page: name, feature: f, ui_context: pick(empty ? EMPTY_CONTEXTS : DATA_CONTEXTS) },
          empty ? 'empty_state' : 'with_data_present',
        );
        feature(f).saw.add(user);
        feature(f).impressions++;
        if (empty) feature(f).empty++;
        contexts[empty ? 'empty_state' : 'with_data_present']++;
        visible.add(f);
      } else if (roll < 0.7) {
        const volume = between(0, 500);
        emit(user, t, 'feature_used', { page: name, feature: f, ui_context: { data_volume: volume } });
        feature(f).saw.add(user);
        feature(f).used.add(user);
        feature(f).first_use.set(user, Math.min(feature(f).first_use.get(user) ?? t, t));
        feature(f).volume += volume;
        feature(f).uses_with_volume++;
        visible.add(f);
      } else {
        emit(user, t, 'click', {
          page: name,
          element: pick(PAGES[name]!.elements),
          element_type: 'button',
          ui_response: true,
        });
      }
    }
    return t;
  };

  const normalSession = (user: string, t: number) => {
    sessions++;
    const visible = new Set<string>();
    let previous: string | undefined;
    let current = pick(PAGE_NAMES);
    for (let v = between(2, 5); v > 0; v--) {
      t = visit(user, t, current, visible) + between(3, 8) * 1000;
      const next = PAGE_NAMES.filter((p) => p !== current && p !== previous);
      [previous, current] = [current, pick(next)];
    }
    for (const f of visible) feature(f).sessions++;
    endSession();
  };

  const planted: (() => void)[] = [];
  const plantedUser = () => pick(users).user_id;
  let plantedSessions = 0;
  const plantedSession = (user: string, body: (t: number) => void) => {
    // After every normal session, 45 min apart: a user's sessions never merge.
    body(options.start + options.spanMs + PLANTED_GAP_MS * ++plantedSessions);
    endSession();
    sessions++;
  };
  for (let i = 0; i < options.planted.rage; i++) {
    planted.push(() => {
      const user = plantedUser();
      const clicks = between(3, 6);
      plantedSession(user, (t) => {
        emit(user, t, 'page_view', { page: '/reports' });
        const ids: string[] = [];
        for (let c = 0; c < clicks; c++) {
          const id = emit(user, t + 2000 + c * 250, 'click', {
            page: '/reports',
            element: '#export-btn',
            element_type: 'button',
            ui_response: true,
            x: 400 + c,
            y: 300,
          });
          ids.push(id);
        }
        plantedSignals.push({ kind: 'rage_click', page: '/reports', at: t + 2000, ids });
      });
      page('/reports').rage_clicks++;
      page('/reports').affected.add(user);
      for (const f of [fact('/reports'), elementFact('/reports', '#export-btn')]) {
        f.rage_clicks += clicks;
        f.rage_episodes++;
      }
    });
  }
  for (let i = 0; i < options.planted.dead; i++) {
    planted.push(() => {
      const user = plantedUser();
      plantedSession(user, (t) => {
        emit(user, t, 'page_view', { page: '/dashboard' });
        const id = emit(user, t + 3000, 'click', {
          page: '/dashboard',
          element: '#chart',
          element_type: 'canvas',
          ui_response: false,
          ui_response_ms: 2500,
        });
        plantedSignals.push({ kind: 'dead_click', page: '/dashboard', at: t + 3000, ids: [id] });
      });
      page('/dashboard').dead_clicks++;
      page('/dashboard').affected.add(user);
      fact('/dashboard').dead_clicks++;
      elementFact('/dashboard', '#chart').dead_clicks++;
    });
  }
  for (let i = 0; i < options.planted.loops; i++) {
    planted.push(() => {
      const user = plantedUser();
      const views = ['/settings', '/billing', '/settings', '/billing'];
      plantedSession(user, (t) => {
        // settings ↔ billing, 12 s on each page (no quick back) with a scroll every 4 s (no idle).
        const ids = views.map((p, k) => {
          const at = t + k * 12_000;
          const id = emit(user, at, 'page_view', { page: p });
          emit(user, at + 4000, 'scroll', { page: p, interaction: 'scroll' });
          emit(user, at + 8000, 'scroll', { page: p, interaction: 'scroll' });
          return id;
        });
        plantedSignals.push({ kind: 'confusion_loop', page: '/settings', at: t, ids });
      });
      page('/settings').confusion_loops++;
      page('/settings').affected.add(user);
      fact('/settings').loop_views += Math.ceil(views.length / 2);
    });
  }
  for (let i = 0; i < options.planted.backtracks; i++) {
    planted.push(() => {
      const user = plantedUser();
      plantedSession(user, (t) => {
        emit(user, t, 'page_view', { page: '/projects' });
        const on = emit(user, t + 5000, 'page_view', { page: '/reports' });
        const back = emit(user, t + 9000, 'page_view', { page: '/projects' }); // back after 4 s
        plantedSignals.push({ kind: 'backtrack', page: '/reports', at: t + 5000, ids: [on, back] });
      });
      page('/reports').backtracks++;
      page('/reports').affected.add(user);
      fact('/reports').backtracks++;
    });
  }
  for (let i = 0; i < options.planted.idle; i++) {
    planted.push(() => {
      const user = plantedUser();
      const gap = between(11, 59) * 1000;
      plantedSession(user, (t) => {
        emit(user, t, 'page_view', { page: '/billing' });
        emit(user, t + gap, 'scroll', { page: '/billing', interaction: 'scroll' });
      });
      page('/billing').idle_gaps++;
      page('/billing').idle_sum += Math.min(gap, idle.capMs);
      page('/billing').affected.add(user);
      fact('/billing').idle_ms += Math.min(gap, idle.capMs);
    });
  }

  for (const slot of slots) normalSession(slot.user, slot.t);
  for (const plant of planted) plant();

  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  const pageAnswers: Record<string, PageAnswer> = Object.fromEntries(
    Object.entries(pages).map(([name, p]) => {
      const { idle_sum, affected, ...rest } = p;
      return [name, { ...rest, avg_idle_time: ratio(idle_sum, p.idle_gaps) / 1000, users_affected: affected.size }];
    }),
  );
  const frictionPoints = Object.entries(facts).flatMap(([name, { elements, ...totals }]) => {
    const p = pageAnswers[name];
    const point = (element: string, f: FrictionFacts): FrictionPointAnswer => ({
      page: name,
      element,
      friction_index: frictionIndex(f),
      signals: {
        dead_clicks: f.dead_clicks,
        rage_clicks: f.rage_episodes,
        confusion_loops: p?.confusion_loops ?? 0,
        avg_idle_time: p?.avg_idle_time ?? 0,
      },
      users_affected: p?.users_affected ?? 0,
      facts: f,
    });
    // An element point: the element's clicks with its page's navigation and time facts.
    return [point('*', totals), ...Object.entries(elements).map(([e, f]) => point(e, { ...totals, ...f }))];
  });
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const round9 = (x: number) => Math.round(x * 1e9) / 1e9; // the API's rounding, for its order only
  frictionPoints.sort(
    (a, b) =>
      round9(b.friction_index) - round9(a.friction_index) ||
      byCodePoint(a.page, b.page) ||
      byCodePoint(a.element, b.element),
  );
  const contextAnswer = (o: ReturnType<typeof outcome>): EventContextAnswer => {
    const w = weights.dead_click + weights.rage_click + weights.loop + weights.backtrack;
    const hit =
      weights.dead_click * o.hits.dead_click +
      weights.rage_click * o.hits.rage_click +
      weights.loop * o.hits.confusion_loop +
      weights.backtrack * o.hits.backtrack;
    return {
      ...o,
      success_rate: ratio(o.successes, o.count),
      friction_index: Math.min(1, ratio(hit, w * o.count)),
    };
  };
  const simulation: Simulation = {
    users,
    events,
    answers: {
      seed: options.seed,
      users: users.length,
      sessions,
      events: events.length,
      pages: pageAnswers,
      features: Object.fromEntries(
        Object.entries(features)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, f]) => {
            const vr = ratio(f.sessions, sessions);
            const ec = ratio(f.used.size, f.saw.size);
            const discoveryMs = [...f.first_use].reduce((sum, [user, t]) => sum + t - firstEvent.get(user)!, 0);
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
      ),
      impression_contexts: contexts,
      friction_points: frictionPoints,
      event_contexts: Object.fromEntries(
        Object.entries(outcomes).map(([name, o]) => [
          name,
          {
            total_occurrences: o.with_data_present.count + o.empty_state.count,
            with_data_present: contextAnswer(o.with_data_present),
            empty_state: contextAnswer(o.empty_state),
          },
        ]),
      ),
    },
  };
  return options.scenarios ? withScenarios(simulation, options, options.scenarios) : simulation;
}

/*
 * Scenarios. Four behavioural groups whose sessions also carry the planted workflows:
 * - power: 5 of 6 days, each session /home then 6 features seen and used; every other session
 *   ends at /new-project with the goal: a 14-step path, capped;
 * - explorer: days 1, 3, 5, each session /home and 4 feature pages seen, none used; the first
 *   (and for a third of them the last) goes on to /gallery (sometimes reloaded), uses it, and
 *   reaches the goal;
 * - casual: one short session on day 0 or 1: /new-project (sometimes reloaded) then the goal,
 *   or /home → /pricing;
 * - struggler: days 2, 3–4, 5, each session a rage burst, an /import ↔ /new-project loop, a dead
 *   click and one feature used; half of them reach the goal in their last session.
 * Two users take a path nobody else takes (it folds into "other"). Every event is 3–8 s after the
 * previous one (no idle gap), rage clicks aside; nobody but strugglers returns to a page. Each
 * event's step is written down as it is planned, and the answers are counted from those steps.
 */
const GOAL = 'project_created';
const POWER_FEATURES = ['board', 'timeline', 'calendar', 'automation', 'dependencies', 'milestones'];
const TOUR = ['board', 'timeline', 'calendar', 'automation', 'dependencies', 'milestones', 'budgets', 'time_tracking'];
const JOB_CRITERIA = "plan == 'pro'";
const SCENARIO_SALT = 0x5c3a_710f;
const MAX_PATH = 10;
const MIN_OCCURRENCES = 2;

interface PlannedStep {
  name: string;
  at: number;
}

function withScenarios(simulation: Simulation, options: SimulationOptions, scenario: ScenarioOptions): Simulation {
  const { perGroup } = scenario;
  if (!Number.isInteger(perGroup) || perGroup < 5 || perGroup > 200) {
    throw new RangeError('scenarios.perGroup must be an integer from 5 to 200');
  }
  // A stream of its own: the other traffic is the same with or without scenarios.
  const rnd = random(options.seed ^ SCENARIO_SALT);
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const prefix = `scn-${options.seed}-`;
  const users: Simulation['users'] = [];
  const events: TrackedEventInput[] = [];
  const groups: Record<string, BehaviouralGroup> = {};
  const sessions: { user: string; steps: PlannedStep[] }[] = [];

  /** A session starting at `at`; each call emits the next event and notes its step, if any. */
  const session = (user: string, at: number) => {
    const steps: PlannedStep[] = [];
    sessions.push({ user, steps });
    let t = at;
    let first = true;
    const emit = (event: string, properties: Record<string, unknown>, step?: string, gapMs?: number) => {
      if (!first) t += gapMs ?? between(3, 8) * 1000;
      first = false;
      events.push({
        user_id: user,
        event,
        properties,
        timestamp: new Date(t).toISOString(),
        message_id: `${prefix}${events.length}`,
      });
      if (step !== undefined) steps.push({ name: step, at: t });
    };
    return {
      view: (page: string) => emit('page_view', { page }, page),
      see: (feature: string, page = `/${feature}`) => emit('feature_impression', { page, feature }),
      use: (feature: string, page = `/${feature}`) => emit('feature_used', { page, feature }, feature),
      click: (page: string, element: string, more: Record<string, unknown>, gapMs?: number) =>
        emit('click', { page, element, element_type: 'button', ...more }, undefined, gapMs),
      goal: () => emit(GOAL, { project: `${user}-p${events.length}` }, GOAL),
    };
  };
  /** Day `day` of the scenarios (UTC days from `start`); users start minutes apart. */
  const startOf = (day: number, i: number) => options.start + day * DAY_MS + 8 * 3600_000 + i * 240_000;

  const plan: Record<BehaviouralGroup, (user: string, i: number) => void> = {
    power(user, i) {
      [0, 1, 2, 3, 4, 5]
        .filter((d) => d !== 1 + (i % 5))
        .forEach((day, s) => {
          const x = session(user, startOf(day, i));
          x.view('/home');
          for (const f of POWER_FEATURES) {
            x.view(`/${f}`);
            x.see(f);
            x.use(f);
          }
          if (s % 2 === 1) return;
          x.view('/new-project');
          x.goal();
        });
    },
    explorer(user, i) {
      [1, 3, 5].forEach((day, s) => {
        const x = session(user, startOf(day, i));
        x.view('/home');
        for (const f of TOUR.slice((s % 2) * 4, (s % 2) * 4 + 4)) {
          x.view(`/${f}`);
          x.see(f);
        }
        if (s === 1 || (s === 2 && i % 3 !== 0)) return;
        if (i === 0 && s === 0) {
          x.view('/import'); // the only explorer on this path
        } else {
          x.view('/gallery');
          if (rnd() < 0.3) x.view('/gallery'); // a reload: merged on the path
          x.see('gallery');
          x.use('gallery');
        }
        x.view('/new-project');
        x.goal();
      });
    },
    casual(user, i) {
      const x = session(user, startOf(i % 2, i));
      if (i % 3 === 2) {
        x.view('/home');
        x.view('/pricing');
        return;
      }
      if (i === 0) x.view('/pricing'); // the only user on this path
      x.view('/new-project');
      if (rnd() < 0.3) x.view('/new-project'); // a reload: merged on the path
      x.goal();
    },
    struggler(user, i) {
      [2, 3 + (i % 2), 5].forEach((day, s) => {
        const x = session(user, startOf(day, i));
        x.view('/import');
        for (let c = 0; c < 3; c++) x.click('/import', '#upload', { ui_response: true, x: 200 + c, y: 120 }, 300);
        for (const page of ['/new-project', '/import', '/new-project', '/import']) x.view(page);
        x.click('/import', '#upload', { ui_response: false, ui_response_ms: 3000 });
        x.see('csv_import', '/import');
        x.use('csv_import', '/import');
        if (s === 2 && i % 2 === 0) {
          x.view('/new-project');
          x.goal();
        }
      });
    },
  };
  for (const group of ['power', 'struggler', 'casual', 'explorer'] as const) {
    for (let i = 0; i < perGroup; i++) {
      const user = `${prefix}${group}-${String(i).padStart(3, '0')}`;
      users.push({ user_id: user, properties: { plan: rnd() < 0.5 ? 'pro' : 'free' } });
      groups[user] = group;
      plan[group](user, i);
    }
  }

  return {
    users: [...simulation.users, ...users],
    events: [...simulation.events, ...events],
    answers: {
      ...simulation.answers,
      scenarios: {
        user_prefix: prefix,
        users: users.length,
        sessions: sessions.length,
        events: events.length,
        workflows: plannedWorkflows(sessions, users.length),
        job: plannedJob(users, sessions),
        groups,
      },
    },
  };
}

/**
 * The goal's workflows counted from the planned steps under docs/metrics.md ("Workflows"):
 * sessions cut at the goal, repeats merged, more than 10 steps → first 8, "...", last; paths seen
 * once fold into "other". The plan never puts a goal first in a session or two goals in a row.
 */
function plannedWorkflows(sessions: { user: string; steps: PlannedStep[] }[], totalUsers: number) {
  const tried: { user: string; path: string[]; done: boolean; ms: number }[] = [];
  const close = (user: string, segment: PlannedStep[], done: boolean, end: number) => {
    const merged = segment.map((s) => s.name).filter((name, k, all) => k === 0 || all[k - 1] !== name);
    const path = merged.length > MAX_PATH ? [...merged.slice(0, MAX_PATH - 2), '...', merged.at(-1)!] : merged;
    tried.push({ user, path, done, ms: end - segment[0]!.at });
  };
  for (const { user, steps } of sessions) {
    let segment: PlannedStep[] = [];
    for (const step of steps) {
      if (step.name !== GOAL) {
        segment.push(step);
        continue;
      }
      close(user, segment, true, step.at);
      segment = [];
    }
    if (segment.length > 0) close(user, segment, false, segment.at(-1)!.at);
  }
  const done = tried.filter((t) => t.done);
  const byPath = new Map<string, typeof done>();
  for (const t of done) byPath.set(JSON.stringify(t.path), [...(byPath.get(JSON.stringify(t.path)) ?? []), t]);
  const answer = (path: string[], members: typeof done): WorkflowAnswer => {
    const firsts = new Set(members.map((m) => m.path[0]));
    const from = tried.filter((t) => firsts.has(t.path[0]));
    const users = new Set(members.map((m) => m.user)).size;
    return {
      path,
      occurrences: members.length,
      frequency: members.length / done.length,
      users,
      user_share: users / totalUsers,
      completion_rate: from.filter((t) => t.done).length / from.length,
      avg_time: members.reduce((sum, m) => sum + m.ms, 0) / members.length / 1000,
    };
  };
  const kept = [...byPath.values()].filter((m) => m.length >= MIN_OCCURRENCES);
  const rare = [...byPath.values()].filter((m) => m.length < MIN_OCCURRENCES).flat();
  const key = (w: WorkflowAnswer) => JSON.stringify(w.path);
  const workflows = kept
    .map((m) => answer(m[0]!.path, m))
    .sort((a, b) => b.occurrences - a.occurrences || (key(a) < key(b) ? -1 : 1));
  if (rare.length > 0) workflows.push(answer(['other'], rare));
  return { goal: GOAL, attempts: tried.length, completions: done.length, workflows };
}

/**
 * The job "reach the goal", aimed at pro users, created before the traffic: it targets every pro
 * user, and completes for those who reach the goal; time runs from the user's first event to
 * their first goal event.
 */
function plannedJob(users: Simulation['users'], sessions: { user: string; steps: PlannedStep[] }[]) {
  const pro = new Set(users.filter((u) => u.properties.plan === 'pro').map((u) => u.user_id));
  const first = new Map<string, number>();
  const goal = new Map<string, number>();
  // Sessions were planned user by user, day by day: the first seen is the earliest.
  for (const { user, steps } of sessions) {
    if (!first.has(user)) first.set(user, steps[0]!.at);
    const reached = steps.find((s) => s.name === GOAL);
    if (reached && !goal.has(user)) goal.set(user, reached.at);
  }
  const completers = [...pro].filter((u) => goal.has(u));
  const seconds = completers.reduce((sum, u) => sum + (goal.get(u)! - first.get(u)!) / 1000, 0);
  return {
    goal: GOAL,
    target_audience: { type: 'segment' as const, criteria: JOB_CRITERIA },
    users_targeted: pro.size,
    users_completed: completers.length,
    completion_rate: pro.size > 0 ? completers.length / pro.size : 0,
    avg_time_to_completion: completers.length > 0 ? seconds / completers.length : 0,
  };
}
