/**
 * Users of their own (`scn-` ids) with planted workflows, job completions and behavioural groups
 * (scenario-plan.ts), added to a simulation with the answers they imply.
 */
import { dice } from './dice.js';
import { plannedJob, plannedWorkflows } from './scenario-answers.js';
import { GROUP_PLANS, type ScenarioPlan } from './scenario-plan.js';
import type { BehaviouralGroup, ScenarioOptions, Simulation, SimulationOptions } from './types.js';

const SCENARIO_SALT = 0x5c3a_710f;

export function withScenarios(
  simulation: Simulation,
  options: SimulationOptions,
  scenario: ScenarioOptions,
): Simulation {
  const { perGroup } = scenario;
  if (!Number.isInteger(perGroup) || perGroup < 5 || perGroup > 200) {
    throw new RangeError('scenarios.perGroup must be an integer from 5 to 200');
  }
  // A stream of its own: the other traffic is the same with or without scenarios.
  const plan: ScenarioPlan = {
    dice: dice(options.seed ^ SCENARIO_SALT),
    prefix: `scn-${options.seed}-`,
    start: options.start,
    events: [],
    sessions: [],
  };
  const users: Simulation['users'] = [];
  const groups: Record<string, BehaviouralGroup> = {};
  for (const group of ['power', 'struggler', 'casual', 'explorer'] as const) {
    for (let i = 0; i < perGroup; i++) {
      const user = `${plan.prefix}${group}-${String(i).padStart(3, '0')}`;
      users.push({ user_id: user, properties: { plan: plan.dice.next() < 0.5 ? 'pro' : 'free' } });
      groups[user] = group;
      GROUP_PLANS[group](plan, user, i);
    }
  }

  return {
    users: [...simulation.users, ...users],
    events: [...simulation.events, ...plan.events],
    answers: {
      ...simulation.answers,
      scenarios: {
        user_prefix: plan.prefix,
        users: users.length,
        sessions: plan.sessions.length,
        events: plan.events.length,
        workflows: plannedWorkflows(plan.sessions, users.length),
        job: plannedJob(users, plan.sessions),
        groups,
      },
    },
  };
}
