/**
 * The default traffic's users and their normal browsing, built to be free of friction: clicks
 * answered by the UI, no return to a page, actions 3–8 s apart (no idle gap), sessions far apart.
 */
import { DATA_CONTEXTS, EMPTY_CONTEXTS, PAGES, PAGE_NAMES, PLANS } from './catalogue.js';
import type { Dice } from './dice.js';
import type { Generation } from './recorder.js';
import type { Simulation, SimulationOptions } from './types.js';

const SESSION_GAP_MS = 2 * 60 * 60_000; // sessions of a user are far apart (> 30 min)

export function simulatedUsers(options: SimulationOptions, { pick }: Dice): Simulation['users'] {
  return Array.from({ length: options.users }, (_, i) => ({
    user_id: `sim-${options.seed}-u${i}`,
    properties: { plan: pick(PLANS), company: `company-${i % 7}` },
  }));
}

/** Every user's sessions: all start times are drawn first, then the sessions in that order. */
export function browse(g: Generation, options: SimulationOptions, users: Simulation['users']): void {
  const slots: { user: string; t: number }[] = [];
  for (const user of users) {
    let t = options.start + Math.floor(g.dice.next() * (options.spanMs / 4));
    for (let s = 0; s < options.sessions; s++) {
      slots.push({ user: user.user_id, t });
      t += SESSION_GAP_MS + Math.floor(g.dice.next() * (options.spanMs / (2 * options.sessions)));
    }
  }
  for (const slot of slots) normalSession(g, slot.user, slot.t);
}

/** 2–5 pages, never the one just left nor the one before it. */
function normalSession(g: Generation, user: string, t: number): void {
  const { pick, between } = g.dice;
  g.tally.sessions++;
  const visible = new Set<string>();
  let previous: string | undefined;
  let current = pick(PAGE_NAMES);
  for (let v = between(2, 5); v > 0; v--) {
    t = visit(g, user, t, current, visible) + between(3, 8) * 1000;
    const next = PAGE_NAMES.filter((p) => p !== current && p !== previous);
    [previous, current] = [current, pick(next)];
  }
  for (const f of visible) g.tally.feature(f).sessions++;
  g.recorder.endSession();
}

/** A friction-free visit: page view, then actions 3–8 s apart; returns the time it ends. */
function visit(g: Generation, user: string, t: number, name: string, visible: Set<string>): number {
  const { next, pick, between } = g.dice;
  const { emit } = g.recorder;
  const { feature, contexts } = g.tally;
  emit(user, t, 'page_view', { page: name });
  for (let a = between(1, 3); a > 0; a--) {
    t += between(3, 8) * 1000;
    const f = pick(PAGES[name]!.features);
    const roll = next();
    if (roll < 0.45) {
      const empty = next() < 0.3;
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
}
