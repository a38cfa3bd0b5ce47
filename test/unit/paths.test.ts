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
} from '../../processors/paths/core.js';

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
    assert.deepEqual(
      attempts(steps('GOAL GOAL'), 'GOAL').map((a) => a.path),
      [[], []],
    );
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

  it('orders ties by path, so equal counts give a stable order', () => {
    const all = ['b GOAL', 'a GOAL', 'b GOAL', 'a GOAL'].flatMap((s) => attempts(steps(s), 'GOAL'));
    assert.deepEqual(
      mineWorkflows('GOAL', all).map((w) => w.path),
      [['a'], ['b']],
    );
  });
});

describe('sepsis.csv (Mannhardt & Blinde 2017, via eventdataR): raw variants', () => {
  // A case is a user, an activity a step; timestamps tie often, so file order breaks ties.
  const rows = parse<Record<string, string>>(fs.readFileSync('../shared/data/sepsis.csv'), {
    delimiter: ';',
    columns: true,
  });

  it('gives the 846 distinct variants of 1,050 cases, grouped exactly as Disco labels them', () => {
    assert.equal(rows.length, 15_214);
    const cases = new Map<string, { steps: { name: string; at: number; order: number }[]; variant: string }>();
    rows.forEach((row, order) => {
      const at = Date.parse(row['Complete Timestamp']!.replace(/\//g, '-').replace(' ', 'T') + 'Z');
      const c = cases.get(row['Case ID']!) ?? { steps: [], variant: row.Variant! };
      c.steps.push({ name: row.Activity!, at, order });
      cases.set(row['Case ID']!, c);
    });
    assert.equal(cases.size, 1050);
    const byVariant = new Map<string, string>(); // our raw sequence → Disco's label
    const labels = new Map<string, string>(); // Disco's label → our raw sequence
    for (const c of cases.values()) {
      const sequence = c.steps
        .sort((a, b) => a.at - b.at || a.order - b.order)
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
