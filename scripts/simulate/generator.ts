/**
 * A seeded generator of traffic for a fictional project-management app, with friction patterns
 * planted in known numbers, and the answers they imply. Normal browsing is built to be free of
 * friction (clicks answered by the UI, no returns to a page, no gaps over 10 s), so every signal
 * the pipeline finds comes from a planted pattern — and the answers are counted here, from the
 * plan, not by running the pipeline's code. Signal facts come from the plan; views, clicks, active
 * time and each event's success are tallied from each session's events as it is emitted, by the
 * rules of docs/metrics.md written out here (only the default thresholds and weights are imported).
 *
 * One stream of draws runs through users, browsing and planted friction in that order; the
 * scenarios draw from a stream of their own. Reordering draws changes all the traffic after them.
 */
import { answersOf } from './answers.js';
import { browse, simulatedUsers } from './browsing.js';
import { dice } from './dice.js';
import { plantFriction } from './planted.js';
import { type Generation, Recorder } from './recorder.js';
import { withScenarios } from './scenarios.js';
import { Tally } from './tally.js';
import type { Simulation, SimulationOptions } from './types.js';

export type * from './types.js';

export function simulate(options: SimulationOptions): Simulation {
  const tally = new Tally();
  const g: Generation = { dice: dice(options.seed), recorder: new Recorder(options.seed, tally), tally };
  const users = simulatedUsers(options, g.dice);
  browse(g, options, users);
  plantFriction(g, options, users);
  const { events } = g.recorder;
  const simulation = { users, events, answers: answersOf(tally, options.seed, users.length, events.length) };
  return options.scenarios ? withScenarios(simulation, options, options.scenarios) : simulation;
}
