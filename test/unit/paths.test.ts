import assert from 'node:assert/strict';
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import {
  DEFAULT_PATH_RULES,
  ELLIPSIS,
  OTHER,
  attempts,
  capPath,
  mergeRepeats,
  mineWorkflows,
  workflowId,
} from '../../domain/workflows/mining.js';
import { type StepEvent, stepOf, stepsOf } from '../../domain/workflows/steps.js';

const steps = (names: string, every = 1000) => names.split(' ').map((name, i) => ({ name, at: i * every }));

describe('path miner', () => {
  it('merges consecutive repeats only', () => {
    assert.deepEqual(mergeRepeats(['a', 'a', 'b', 'a', 'a', 'c']), ['a', 'b', 'a', 'c']);
    assert.deepEqual(mergeRepeats([]), []);
  });

  it('caps long paths keeping the first steps and the last', () => {
    const long = Array.from({ length: 12 }, (_, i) => `s${i}`);
    assert.deepEqual(capPath(long, 10), ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', ELLIPSIS, 's11']);
    assert.equal(capPath(long.slice(0, 10), 10).length, 10, 'exactly the cap stays whole');
  });

  it('cuts a session into attempts at every goal, the tail being an unfinished one', () => {
    const out = attempts(steps('home list list form GOAL home form GOAL list'), 'GOAL');
    assert.deepEqual(
      out.map((a) => [a.path, a.completed, a.duration]),
      [
        [['home', 'list', 'form'], true, 4000],
        [['home', 'form'], true, 2000],
        [['list'], false, 0],
      ],
    );
    assert.deepEqual(out[0]!.raw, ['home', 'list', 'list', 'form']);
    // A goal at the session start has an empty path; a goal right after a goal is the same completion.
    assert.deepEqual(
      attempts(steps('GOAL GOAL home GOAL'), 'GOAL').map((a) => [a.path, a.completed]),
      [
        [[], true],
        [['home'], true],
      ],
    );
  });

  it('counts users and their share, and ignores empty paths when finding the optimum', () => {
    const made = (user: string, s: string) => attempts(steps(s), 'GOAL').map((a) => ({ ...a, user }));
    const all = [
      ...made('u1', 'GOAL a b GOAL'), // an empty path, then a b
      ...made('u2', 'a b GOAL'),
      ...made('u2', 'a b b GOAL'),
      ...made('u3', 'a'),
    ];
    const [ab, other] = mineWorkflows('GOAL', all, DEFAULT_PATH_RULES, 4);
    assert.deepEqual(ab!.path, ['a', 'b']);
    assert.deepEqual([ab!.occurrences, ab!.users, ab!.user_share], [3, 2, 2 / 4]);
    // optimum 2 (the empty path does not count), mean raw steps (2 + 2 + 3) / 3
    assert.deepEqual([ab!.optimal_steps, ab!.actual_avg_steps, ab!.efficiency_score], [2, 7 / 3, 2 / (7 / 3)]);
    // 3 of the 4 attempts starting at a completed
    assert.equal(ab!.completion_rate, 3 / 4);
    assert.deepEqual([other!.path, other!.occurrences, other!.users, other!.efficiency_score], [[OTHER], 1, 1, 1]);
    assert.equal(mineWorkflows('GOAL', all)[0]!.user_share, 2 / 3, 'default: the users among the attempts');
    assert.deepEqual(mineWorkflows('GOAL', made('u1', 'a b')), [], 'no completion, no workflow');
  });

  it('groups paths with frequency, completion, time and efficiency; rare ones fold into other', () => {
    const sessions = [
      'home list form GOAL',
      'home list form GOAL',
      'home list list list form GOAL', // same merged path, more raw steps
      'home form GOAL',
      'home form GOAL',
      'search form GOAL', // seen once: folds into other
      'home list', // an attempt from home that never reached the goal
    ];
    const all = sessions.flatMap((s) => attempts(steps(s), 'GOAL'));
    const workflows = mineWorkflows('GOAL', all, DEFAULT_PATH_RULES);
    assert.deepEqual(
      workflows.map((w) => [w.path, w.occurrences, w.frequency, w.completion_rate, w.avg_time, w.efficiency_score]),
      [
        // 3 of 6 completions; 5 of the 6 attempts starting at home completed; (3 + 3 + 5) s / 3;
        // optimal 2 steps ÷ mean raw steps (3 + 3 + 5) / 3
        [['home', 'list', 'form'], 3, 0.5, 5 / 6, 11 / 3, 2 / (11 / 3)],
        [['home', 'form'], 2, 2 / 6, 5 / 6, 2, 1],
        [[OTHER], 1, 1 / 6, 1, 2, 1],
      ],
    );
    assert.equal(workflows[0]!.workflow_id, workflowId('GOAL', ['home', 'list', 'form']));
    assert.notEqual(workflowId('GOAL', ['a', 'b']), workflowId('GOAL', ['ab']));
  });

  it('groups long paths by their capped form: the first 8 steps, "..." and the last', () => {
    const all = ['a b c d e f g h x1 x2 z GOAL', 'a b c d e f g h y1 y2 y3 z GOAL'].flatMap((s) =>
      attempts(steps(s), 'GOAL'),
    );
    const [capped] = mineWorkflows('GOAL', all);
    assert.deepEqual(capped!.path, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', ELLIPSIS, 'z']);
    assert.deepEqual([capped!.occurrences, capped!.optimal_steps, capped!.actual_avg_steps], [2, 11, 11.5]);
  });

  it('orders ties by path, so equal counts give a stable order', () => {
    const all = ['b GOAL', 'a GOAL', 'b GOAL', 'a GOAL'].flatMap((s) => attempts(steps(s), 'GOAL'));
    assert.deepEqual(
      mineWorkflows('GOAL', all).map((w) => w.path),
      [['a'], ['b']],
    );
  });
});

describe('steps of events', () => {
  const e = (event: string, properties: StepEvent['properties'] = {}, at = 0, offset = 0): StepEvent => ({
    event,
    at,
    offset,
    properties,
  });

  it('takes pages, features and custom events; skips clicks and impressions', () => {
    assert.equal(stepOf(e('page_view', { page: '/home' })), '/home');
    assert.equal(stepOf(e('page_view')), undefined, 'a page view without a page');
    assert.equal(stepOf(e('feature_used', { feature: 'export' })), 'export');
    assert.equal(stepOf(e('feature_used', { feature: '' })), 'feature_used');
    assert.equal(stepOf(e('click', { page: '/home' })), undefined);
    assert.equal(stepOf(e('feature_impression', { feature: 'export' })), undefined);
    assert.equal(stepOf(e('Release A', { page: '/ward' })), 'Release A');
  });

  it('names the goal event after the goal, whatever kind of event it is', () => {
    assert.equal(stepOf(e('page_view', { page: '/done' }), 'page_view'), 'page_view');
    assert.equal(stepOf(e('click'), 'click'), 'click');
  });

  it('orders by time, ties in arrival order, and keeps repeats (merging is the miner’s)', () => {
    const events = [
      e('b', {}, 1000, 7),
      e('a', {}, 1000, 3),
      e('click', {}, 500, 1),
      e('a', {}, 2000, 2),
      e('c', {}, 0, 9),
    ];
    assert.deepEqual(
      stepsOf(events).map((s) => [s.name, s.at]),
      [
        ['c', 0],
        ['a', 1000],
        ['b', 1000],
        ['a', 2000],
      ],
    );
  });
});

describe('sepsis.csv (Mannhardt & Blinde 2017, via eventdataR): raw variants', () => {
  // A case is a user, an activity a step; timestamps tie often, so file (arrival) order breaks ties.
  const rows = parse<Record<string, string>>(fs.readFileSync('../shared/data/sepsis.csv'), {
    delimiter: ';',
    columns: true,
  });

  it('gives the 846 distinct variants of 1,050 cases, grouped exactly as Disco labels them', () => {
    assert.equal(rows.length, 15_214);
    const cases = new Map<string, { events: StepEvent[]; variant: string }>();
    rows.forEach((row, order) => {
      const at = Date.parse(row['Complete Timestamp']!.replace(/\//g, '-').replace(' ', 'T') + 'Z');
      const c = cases.get(row['Case ID']!) ?? { events: [], variant: row.Variant! };
      c.events.push({ event: row.Activity!, at, offset: order, properties: {} });
      cases.set(row['Case ID']!, c);
    });
    assert.equal(cases.size, 1050);
    const byVariant = new Map<string, string>(); // our raw sequence → Disco's label
    const labels = new Map<string, string>(); // Disco's label → our raw sequence
    for (const c of cases.values()) {
      const sequence = stepsOf(c.events)
        .map((s) => s.name)
        .join(' → ');
      assert.equal(byVariant.get(sequence) ?? c.variant, c.variant, 'one sequence, one label');
      assert.equal(labels.get(c.variant) ?? sequence, sequence, 'one label, one sequence');
      byVariant.set(sequence, c.variant);
      labels.set(c.variant, sequence);
    }
    assert.equal(byVariant.size, 846);
  });
});
