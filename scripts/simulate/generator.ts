/**
 * A seeded generator of traffic for a fictional project-management app, with friction patterns
 * planted in known numbers, and the answers they imply. Normal browsing is built to be free of
 * friction (clicks answered by the UI, no returns to a page, no gaps over 10 s), so every signal
 * the pipeline finds comes from a planted pattern — and the answers are counted here, from the
 * plan, not by running the pipeline's code.
 */
import type { TrackedEventInput } from '../../lib/tracked-event.js';

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
  visible_in_empty_state: number;
  avg_data_volume_when_used: number;
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

export function simulate(options: SimulationOptions): Simulation {
  const rnd = random(options.seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

  const users = Array.from({ length: options.users }, (_, i) => ({
    user_id: `sim-${options.seed}-u${i}`,
    properties: { plan: pick(PLANS), company: `company-${i % 7}` },
  }));
  const events: TrackedEventInput[] = [];
  let counter = 0;
  const emit = (user: string, t: number, event: string, properties: Record<string, unknown>) => {
    events.push({
      user_id: user,
      event,
      properties,
      timestamp: new Date(t).toISOString(),
      message_id: `sim-${options.seed}-${counter++}`,
    });
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
      sessions: 0,
      impressions: 0,
      empty: 0,
      volume: 0,
      uses_with_volume: 0,
    });
  const contexts = { with_data_present: 0, empty_state: 0 };
  let sessions = 0;

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
        emit(user, t, 'feature_impression', {
          page: name,
          feature: f,
          ui_context: { empty_state: empty, data_present: !empty },
        });
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
  };

  const planted: (() => void)[] = [];
  const plantedUser = () => pick(users).user_id;
  let plantedSessions = 0;
  const plantedSession = (user: string, body: (t: number) => void) => {
    // After every normal session, 45 min apart: a user's sessions never merge.
    body(options.start + options.spanMs + PLANTED_GAP_MS * ++plantedSessions);
    sessions++;
  };
  for (let i = 0; i < options.planted.rage; i++) {
    planted.push(() => {
      const user = plantedUser();
      const clicks = between(3, 6);
      plantedSession(user, (t) => {
        emit(user, t, 'page_view', { page: '/reports' });
        for (let c = 0; c < clicks; c++) {
          emit(user, t + 2000 + c * 250, 'click', {
            page: '/reports',
            element: '#export-btn',
            element_type: 'button',
            ui_response: true,
            x: 400 + c,
            y: 300,
          });
        }
      });
      page('/reports').rage_clicks++;
      page('/reports').affected.add(user);
    });
  }
  for (let i = 0; i < options.planted.dead; i++) {
    planted.push(() => {
      const user = plantedUser();
      plantedSession(user, (t) => {
        emit(user, t, 'page_view', { page: '/dashboard' });
        emit(user, t + 3000, 'click', {
          page: '/dashboard',
          element: '#chart',
          element_type: 'canvas',
          ui_response: false,
          ui_response_ms: 2500,
        });
      });
      page('/dashboard').dead_clicks++;
      page('/dashboard').affected.add(user);
    });
  }
  for (let i = 0; i < options.planted.loops; i++) {
    planted.push(() => {
      const user = plantedUser();
      plantedSession(user, (t) => {
        // settings ↔ billing, 12 s on each page (no quick back) with a scroll every 4 s (no idle).
        ['/settings', '/billing', '/settings', '/billing'].forEach((p, k) => {
          const at = t + k * 12_000;
          emit(user, at, 'page_view', { page: p });
          emit(user, at + 4000, 'scroll', { page: p, interaction: 'scroll' });
          emit(user, at + 8000, 'scroll', { page: p, interaction: 'scroll' });
        });
      });
      page('/settings').confusion_loops++;
      page('/settings').affected.add(user);
    });
  }
  for (let i = 0; i < options.planted.backtracks; i++) {
    planted.push(() => {
      const user = plantedUser();
      plantedSession(user, (t) => {
        emit(user, t, 'page_view', { page: '/projects' });
        emit(user, t + 5000, 'page_view', { page: '/reports' });
        emit(user, t + 9000, 'page_view', { page: '/projects' }); // back after 4 s
      });
      page('/reports').backtracks++;
      page('/reports').affected.add(user);
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
      page('/billing').idle_sum += gap;
      page('/billing').affected.add(user);
    });
  }

  for (const slot of slots) normalSession(slot.user, slot.t);
  for (const plant of planted) plant();

  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  return {
    users,
    events,
    answers: {
      seed: options.seed,
      users: users.length,
      sessions,
      events: events.length,
      pages: Object.fromEntries(
        Object.entries(pages).map(([name, p]) => {
          const { idle_sum, affected, ...rest } = p;
          return [name, { ...rest, avg_idle_time: ratio(idle_sum, p.idle_gaps) / 1000, users_affected: affected.size }];
        }),
      ),
      features: Object.fromEntries(
        Object.entries(features)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, f]) => [
            name,
            {
              users_saw: f.saw.size,
              users_used: f.used.size,
              sessions_visible: f.sessions,
              visibility_rate: ratio(f.sessions, sessions),
              engagement_conversion: ratio(f.used.size, f.saw.size),
              visible_in_empty_state: ratio(f.empty, f.impressions),
              avg_data_volume_when_used: ratio(f.volume, f.uses_with_volume),
            },
          ]),
      ),
      impression_contexts: contexts,
    },
  };
}
