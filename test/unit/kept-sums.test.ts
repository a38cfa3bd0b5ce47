import assert from 'node:assert/strict';
import { addsNothing, jobContribution, type JobUserFacts } from '../../domain/jobs/facts.js';
import { attemptRows, firstStepOf } from '../../domain/workflows/attempt-rows.js';
import {
  DEFAULT_PATH_RULES,
  OTHER,
  attempts,
  mineWorkflows,
  summariseAttempts,
  workflowsOf,
} from '../../domain/workflows/mining.js';
import { type StepEvent, stepsOf } from '../../domain/workflows/steps.js';

/** The pure parts of the workers' kept state (migration 21): the rows kept, and what each adds to the sums. */
describe('kept attempts and sums', () => {
  const page = (name: string, at: number, offset = at): StepEvent => ({
    event: 'page_view',
    at,
    offset,
    properties: { page: name },
  });
  const goal = (at: number): StepEvent => ({ event: 'signup', at, offset: at, properties: {} });

  it('keeps a session’s attempts at each goal as rows with what the sums need', () => {
    const events = [page('/a', 0), page('/a', 1), page('/b', 2), goal(5), page('/c', 9)];
    const rows = attemptRows('u1', events, ['signup', '/b']);
    assert.deepEqual(
      rows.map((r) => [
        r.goal,
        r.ordinal,
        r.completed,
        JSON.parse(r.path) as string[],
        r.raw_steps,
        r.merged_steps,
        r.duration_ms,
      ]),
      [
        ['signup', 0, true, ['/a', '/b'], 3, 2, 5],
        ['signup', 1, false, ['/c'], 1, 1, 0],
        ['/b', 0, true, ['/a'], 2, 1, 2],
        ['/b', 1, false, ['signup', '/c'], 2, 2, 4],
      ],
    );
    assert.ok(rows.every((r) => r.user_id === 'u1'));
    assert.equal(firstStepOf(rows[0]!), '/a');
    assert.equal(firstStepOf({ path: '[]' }), '');
    // The same attempts the miner cuts (events in any order).
    assert.deepEqual(
      attemptRows('u1', [...events].reverse(), ['signup']).map((r) => r.path),
      attempts(stepsOf(events, 'signup'), 'signup').map((a) => JSON.stringify(a.path)),
    );
  });

  it('derives the same workflows from a summary as from the attempts, folded users counted once', () => {
    const made = (user: string, s: string) =>
      attempts(
        s.split(' ').map((name, i) => ({ name, at: i * 1000 })),
        'GOAL',
      ).map((a) => ({ ...a, user }));
    const all = [
      ...made('u1', 'a b GOAL x GOAL'),
      ...made('u2', 'a b GOAL'),
      ...made('u2', 'y GOAL'),
      ...made('u3', 'a z'),
    ];
    const summary = summariseAttempts(all);
    assert.deepEqual(workflowsOf('GOAL', summary, DEFAULT_PATH_RULES, 5), mineWorkflows('GOAL', all, undefined, 5));
    const other = workflowsOf('GOAL', summary, DEFAULT_PATH_RULES, 5).at(-1)!;
    assert.deepEqual([other.path, other.occurrences, other.users], [[OTHER], 2, 2]);
    // Kept sums carry user ids only for folded paths; without them "other" cannot be counted.
    const withoutIds = { ...summary, paths: summary.paths.map(({ userIds: _, ...p }) => p) };
    assert.throws(() => workflowsOf('GOAL', withoutIds, DEFAULT_PATH_RULES, 5), /folded path/);
  });

  it('counts a user’s share of a job: targeted or completed, steps and drop-off only when targeted', () => {
    const f: JobUserFacts = {
      job_id: 'j',
      user_id: 'u',
      in_targets: true,
      completed: false,
      completion_ms: 0,
      shown: 2,
      accepted: 1,
      steps: ['/a', '/b'],
      last_step: '/b',
      day: '2026-11-20',
    };
    assert.deepEqual(jobContribution(f), {
      sums: { targeted: 1, completed: 0, completion_ms: 0, shown: 2, accepted: 1 },
      steps: [
        { step: '/a', reached: 1, dropped: 0 },
        { step: '/b', reached: 1, dropped: 1 },
      ],
    });
    const done = jobContribution({ ...f, completed: true, completion_ms: 60_000 });
    assert.deepEqual(done.sums, { targeted: 1, completed: 1, completion_ms: 60_000, shown: 2, accepted: 1 });
    assert.ok(
      done.steps.every((s) => s.dropped === 0),
      'a user who completed did not drop off',
    );
    const outside = jobContribution({ ...f, in_targets: false, completed: true, completion_ms: 1000 });
    assert.deepEqual([outside.sums.targeted, outside.steps], [1, []], 'a completion counts as targeted, no steps');
    assert.ok(addsNothing({ ...f, in_targets: false, shown: 0, accepted: 0 }));
    assert.ok(!addsNothing({ ...f, in_targets: false, shown: 0, accepted: 1 }));
  });
});
