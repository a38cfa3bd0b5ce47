/**
 * Friction planted in known numbers, each pattern in a session of its own after every normal
 * session. A pattern emits its events, marks its signal for the success of the events before it,
 * and adds its signal facts to the answers: the plan, not the pipeline's code, says what is there.
 */
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import type { Generation } from './recorder.js';
import type { Simulation, SimulationOptions } from './types.js';

const PLANTED_GAP_MS = 45 * 60_000;

/** Runs `body` as a new session starting at the time it is given. */
type PlantedSession = (body: (t: number) => void) => void;
type Pattern = (g: Generation, user: string, session: PlantedSession) => void;

/** Rage: 3–6 clicks 250 ms apart on the export button. */
const rage: Pattern = (g, user, session) => {
  const { emit, plant } = g.recorder;
  const { page, fact, elementFact } = g.tally;
  const clicks = g.dice.between(3, 6);
  session((t) => {
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
    plant({ kind: 'rage_click', page: '/reports', at: t + 2000, ids });
  });
  page('/reports').rage_clicks++;
  page('/reports').affected.add(user);
  elementFact('/reports', '#export-btn').affected.add(user);
  for (const f of [fact('/reports'), elementFact('/reports', '#export-btn')]) {
    f.rage_clicks += clicks;
    f.rage_episodes++;
  }
};

/** Dead: a click on the chart the UI does not answer. */
const deadClick: Pattern = (g, user, session) => {
  const { emit, plant } = g.recorder;
  const { page, fact, elementFact } = g.tally;
  session((t) => {
    emit(user, t, 'page_view', { page: '/dashboard' });
    const id = emit(user, t + 3000, 'click', {
      page: '/dashboard',
      element: '#chart',
      element_type: 'canvas',
      ui_response: false,
      ui_response_ms: 2500,
    });
    plant({ kind: 'dead_click', page: '/dashboard', at: t + 3000, ids: [id] });
  });
  page('/dashboard').dead_clicks++;
  page('/dashboard').affected.add(user);
  fact('/dashboard').dead_clicks++;
  elementFact('/dashboard', '#chart').dead_clicks++;
  elementFact('/dashboard', '#chart').affected.add(user);
};

/** Loop: settings ↔ billing, 12 s on each page (no quick back) with a scroll every 4 s (no idle). */
const loop: Pattern = (g, user, session) => {
  const { emit, plant } = g.recorder;
  const { page, fact } = g.tally;
  const views = ['/settings', '/billing', '/settings', '/billing'];
  session((t) => {
    const ids = views.map((p, k) => {
      const at = t + k * 12_000;
      const id = emit(user, at, 'page_view', { page: p });
      emit(user, at + 4000, 'scroll', { page: p, interaction: 'scroll' });
      emit(user, at + 8000, 'scroll', { page: p, interaction: 'scroll' });
      return id;
    });
    plant({ kind: 'confusion_loop', page: '/settings', at: t, ids });
  });
  page('/settings').confusion_loops++;
  page('/settings').affected.add(user);
  fact('/settings').loop_views += Math.ceil(views.length / 2);
};

/** Backtrack: projects → reports → back to projects after 4 s. */
const backtrack: Pattern = (g, user, session) => {
  const { emit, plant } = g.recorder;
  const { page, fact } = g.tally;
  session((t) => {
    emit(user, t, 'page_view', { page: '/projects' });
    const on = emit(user, t + 5000, 'page_view', { page: '/reports' });
    const back = emit(user, t + 9000, 'page_view', { page: '/projects' });
    plant({ kind: 'backtrack', page: '/reports', at: t + 5000, ids: [on, back] });
  });
  page('/reports').backtracks++;
  page('/reports').affected.add(user);
  fact('/reports').backtracks++;
};

/** Idle: 11–59 s between the billing page's view and a scroll. */
const idleGap: Pattern = (g, user, session) => {
  const { emit } = g.recorder;
  const { page, fact } = g.tally;
  const { capMs } = DEFAULT_ANALYTICS.idle;
  const gap = g.dice.between(11, 59) * 1000;
  session((t) => {
    emit(user, t, 'page_view', { page: '/billing' });
    emit(user, t + gap, 'scroll', { page: '/billing', interaction: 'scroll' });
  });
  page('/billing').idle_gaps++;
  page('/billing').idle_sum += Math.min(gap, capMs);
  page('/billing').affected.add(user);
  fact('/billing').idle_ms += Math.min(gap, capMs);
};

/** In this order: every draw of the dice follows the one before. */
const PATTERNS: [keyof SimulationOptions['planted'], Pattern][] = [
  ['rage', rage],
  ['dead', deadClick],
  ['loops', loop],
  ['backtracks', backtrack],
  ['idle', idleGap],
];

/** Plants `options.planted` of each pattern on users drawn at random. */
export function plantFriction(g: Generation, options: SimulationOptions, users: Simulation['users']): void {
  let sessions = 0;
  const session: PlantedSession = (body) => {
    // After every normal session, 45 min apart: a user's sessions never merge.
    body(options.start + options.spanMs + PLANTED_GAP_MS * ++sessions);
    g.recorder.endSession();
    g.tally.sessions++;
  };
  for (const [kind, plant] of PATTERNS) {
    for (let i = 0; i < options.planted[kind]; i++) plant(g, g.dice.pick(users).user_id, session);
  }
}
