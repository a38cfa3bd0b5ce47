import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { type Attempt, attempts, mineWorkflows } from '../../domain/workflows/mining.js';
import { stepsOf } from '../../domain/workflows/steps.js';
import { parseCriteria } from '../../domain/jobs/audience.js';
import { type Simulation, type SimulationOptions, simulate } from '../../scripts/simulate/generator.js';
import { sessionsOf } from './simulated-sessions.js';

const DAY = 86_400_000;
const base = (seed: number, users: number, sessions: number): SimulationOptions => ({
  seed,
  users,
  sessions,
  start: Date.UTC(2024, 0, 1),
  spanMs: 3 * DAY,
  planted: { rage: 7, dead: 11, loops: 5, backtracks: 9, idle: 6 },
});
const sha256 = (s: unknown) => crypto.createHash('sha256').update(JSON.stringify(s)).digest('hex');
const withScenarios = (seed: number, perGroup = 24): SimulationOptions => ({
  ...base(seed, 0, 0),
  planted: { rage: 0, dead: 0, loops: 0, backtracks: 0, idle: 0 },
  scenarios: { perGroup },
});

describe('simulator scenarios', () => {
  it('leaves the default traffic exactly as it was before scenarios existed', () => {
    // Hashes of JSON.stringify(simulate(...)) of the default traffic and its answers (taken again when the empty-state
    // forms were varied, and when the answers gained friction points, event contexts and discovery times, and when element points got their own
    // users_affected and points without friction were left out, and event contexts their CSR, and when an event's own
    // signal, a dead click, began to fail it); the
    // scenarios must not change them. The traffic alone (users and events) has hashes of its own, so a change of the
    // answers shows as one that leaves the events alone.
    assert.equal(sha256(simulate(base(7, 30, 3))), 'e73e62174fc7378d673d7fceaa2f86603b8abccacf8cc80587b29e6bf4883257');
    assert.equal(sha256(simulate(base(42, 50, 3))), 'eb4757cfffa18a75244adecba015ea066edf7f21ac97014e3f2750e4e0b636f9');
    assert.equal(sha256(simulate(base(1, 5, 1))), 'bdf97a4db3d48198e7513c51c2cabeac0d9599c7f3bfe41683a3f8beeea6965c');
    const traffic = (s: Simulation) => sha256({ users: s.users, events: s.events });
    assert.equal(traffic(simulate(base(7, 30, 3))), '980cd59506bb7c0263c8bc20e57d2251ab5a3dfa0adfbf440989d0d0e3ebeec2');
    assert.equal(
      traffic(simulate(base(42, 50, 3))),
      '5ff36f3535dcd93b254ad57016c288fdb625a590790ea389d44a829bd075be16',
    );
    assert.equal(traffic(simulate(base(1, 5, 1))), 'fc6e2eaef24a11708f7e971e3ee05a1b2c092cbdc693649b6fc4e9c79a6f5d35');
  });

  it('adds its own users and events after the default traffic, which stays the same', () => {
    const plain = simulate(base(7, 30, 3));
    const mixed = simulate({ ...base(7, 30, 3), scenarios: { perGroup: 6 } });
    const { scenarios, ...answers } = mixed.answers;
    assert.deepEqual(answers, plain.answers);
    assert.deepEqual(mixed.users.slice(0, plain.users.length), plain.users);
    assert.deepEqual(mixed.events.slice(0, plain.events.length), plain.events);
    const added = mixed.events.slice(plain.events.length);
    assert.equal(added.length, scenarios!.events);
    assert.ok(added.every((e) => e.user_id.startsWith(scenarios!.user_prefix)));
    assert.ok(plain.users.every((u) => !u.user_id.startsWith(scenarios!.user_prefix)));
    const ids = mixed.events.map((e) => e.message_id);
    assert.equal(new Set(ids).size, ids.length, 'message ids are unique');
  });

  it('is deterministic for a seed and differs between seeds', () => {
    assert.deepEqual(simulate(withScenarios(5)), simulate(withScenarios(5)));
    assert.notEqual(sha256(simulate(withScenarios(5))), sha256(simulate(withScenarios(6))));
  });

  it('refuses a group size it cannot plant', () => {
    for (const perGroup of [0, 4, 2.5, 201]) assert.throws(() => simulate(withScenarios(1, perGroup)), RangeError);
  });

  it('plants four groups of the requested size, every user in one, in sessions that never merge', () => {
    const simulation = simulate(withScenarios(9, 20));
    const answers = simulation.answers.scenarios!;
    const groups = Object.values(answers.groups);
    assert.equal(answers.users, 80);
    for (const group of ['power', 'struggler', 'casual', 'explorer']) {
      assert.equal(groups.filter((g) => g === group).length, 20, group);
    }
    assert.deepEqual(Object.keys(answers.groups).sort(), simulation.users.map((u) => u.user_id).sort());
    assert.equal(answers.events, simulation.events.length);
    assert.equal(sessionsOf(simulation).length, answers.sessions);
  });

  it("states the goal's workflows the path rules give on its events (domain/workflows)", () => {
    for (const seed of [3, 23, 77]) {
      const simulation = simulate(withScenarios(seed));
      const planned = simulation.answers.scenarios!.workflows;
      const sessions = sessionsOf(simulation);
      const all = sessions.flatMap((s) =>
        attempts(
          stepsOf(
            s.events.map((e) => ({ event: e.event, at: e.timestamp, offset: e.offset, properties: e.properties })),
            planned.goal,
          ),
          planned.goal,
        ).map((a): Attempt => ({ ...a, user: s.user_id })),
      );
      const mined = mineWorkflows(planned.goal, all, undefined, simulation.users.length);
      assert.equal(all.length, planned.attempts);
      assert.equal(all.filter((a) => a.completed).length, planned.completions);
      assert.equal(simulation.events.filter((e) => e.event === planned.goal).length, planned.completions);
      assert.deepEqual(
        mined.map(({ path, occurrences, frequency, users, user_share, completion_rate, avg_time }) => ({
          path,
          occurrences,
          frequency,
          users,
          user_share,
          completion_rate,
          avg_time,
        })),
        planned.workflows,
      );
      // The plan exercises every rule: a capped path, a merged reload, a folded "other", unfinished attempts.
      assert.ok(planned.workflows.some((w) => w.path.includes('...')));
      assert.ok(all.some((a) => a.completed && a.raw.length > a.path.length && !a.path.includes('...')));
      assert.equal(planned.workflows.at(-1)!.path[0], 'other');
      assert.ok(planned.workflows.some((w) => w.completion_rate > 0 && w.completion_rate < 1));
    }
  });

  it('states the job numbers its events and user properties imply', () => {
    const simulation = simulate(withScenarios(31));
    const { job } = simulation.answers.scenarios!;
    const matches = parseCriteria(job.target_audience.criteria);
    const targeted = simulation.users.filter((u) => matches(u.properties)).map((u) => u.user_id);
    const times = new Map<string, { first: number; goal?: number }>();
    for (const e of simulation.events) {
      const at = Date.parse(e.timestamp!);
      const t = times.get(e.user_id) ?? { first: at };
      t.first = Math.min(t.first, at);
      if (e.event === job.goal) t.goal = Math.min(t.goal ?? at, at);
      times.set(e.user_id, t);
    }
    const completed = targeted.filter((u) => times.get(u)!.goal !== undefined);
    assert.equal(job.users_targeted, targeted.length);
    assert.equal(job.users_completed, completed.length);
    assert.ok(completed.length > 0 && completed.length < targeted.length);
    assert.equal(job.completion_rate, completed.length / targeted.length);
    const seconds = completed.map((u) => (times.get(u)!.goal! - times.get(u)!.first) / 1000);
    assert.ok(Math.abs(job.avg_time_to_completion - seconds.reduce((a, b) => a + b, 0) / seconds.length) < 1e-9);
  });
});
