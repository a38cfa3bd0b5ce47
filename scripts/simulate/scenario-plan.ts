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
import type { TrackedEventInput } from '../../domain/tracked-event.js';
import { DAY_MS } from '../../domain/time.js';
import type { Dice } from './dice.js';
import type { BehaviouralGroup } from './types.js';

export const GOAL = 'project_created';
const POWER_FEATURES = ['board', 'timeline', 'calendar', 'automation', 'dependencies', 'milestones'];
const TOUR = ['board', 'timeline', 'calendar', 'automation', 'dependencies', 'milestones', 'budgets', 'time_tracking'];

export interface PlannedStep {
  name: string;
  at: number;
}

export interface PlannedSession {
  user: string;
  steps: PlannedStep[];
}

/** The scenarios being planned: their own dice, ids, events and sessions. */
export interface ScenarioPlan {
  dice: Dice;
  prefix: string;
  /** epoch ms of day 0 */
  start: number;
  events: TrackedEventInput[];
  sessions: PlannedSession[];
}

/** A session starting at `at`; each call emits the next event and notes its step, if any. */
function session(plan: ScenarioPlan, user: string, at: number) {
  const { events, prefix } = plan;
  const steps: PlannedStep[] = [];
  plan.sessions.push({ user, steps });
  let t = at;
  let first = true;
  const emit = (event: string, properties: Record<string, unknown>, step?: string, gapMs?: number) => {
    if (!first) t += gapMs ?? plan.dice.between(3, 8) * 1000;
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
}

/** Day `day` of the scenarios (UTC days from `start`); users start minutes apart. */
const startOf = (plan: ScenarioPlan, day: number, i: number) => plan.start + day * DAY_MS + 8 * 3600_000 + i * 240_000;

/** Each group's sessions for its `i`-th user. */
export const GROUP_PLANS: Record<BehaviouralGroup, (plan: ScenarioPlan, user: string, i: number) => void> = {
  power(plan, user, i) {
    [0, 1, 2, 3, 4, 5]
      .filter((d) => d !== 1 + (i % 5))
      .forEach((day, s) => {
        const x = session(plan, user, startOf(plan, day, i));
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
  explorer(plan, user, i) {
    [1, 3, 5].forEach((day, s) => {
      const x = session(plan, user, startOf(plan, day, i));
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
        if (plan.dice.next() < 0.3) x.view('/gallery'); // a reload: merged on the path
        x.see('gallery');
        x.use('gallery');
      }
      x.view('/new-project');
      x.goal();
    });
  },
  casual(plan, user, i) {
    const x = session(plan, user, startOf(plan, i % 2, i));
    if (i % 3 === 2) {
      x.view('/home');
      x.view('/pricing');
      return;
    }
    if (i === 0) x.view('/pricing'); // the only user on this path
    x.view('/new-project');
    if (plan.dice.next() < 0.3) x.view('/new-project'); // a reload: merged on the path
    x.goal();
  },
  struggler(plan, user, i) {
    [2, 3 + (i % 2), 5].forEach((day, s) => {
      const x = session(plan, user, startOf(plan, day, i));
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
