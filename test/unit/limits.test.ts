import assert from 'node:assert/strict';
import { type CohortDue, cohortsThisPass } from '../../domain/limits.js';

const cohort = (id: string, full: boolean, evaluatedAt?: string): CohortDue => ({
  cohort_id: id,
  full,
  evaluated_at: evaluatedAt ? new Date(evaluatedAt) : null,
});

describe('cohortsThisPass: full evaluations bounded per pass', () => {
  const cohorts = [
    cohort('c1', false, '2026-01-01T00:00:00Z'),
    cohort('c2', true, '2026-01-01T00:05:00Z'),
    cohort('c3', true),
    cohort('c4', true, '2026-01-01T00:01:00Z'),
    cohort('c5', false, '2026-01-01T00:00:00Z'),
    cohort('c6', true),
  ];
  const ids = (budget: number) => cohortsThisPass(cohorts, budget).map((c) => c.cohort_id);

  it('keeps every incremental cohort and the never-evaluated, then longest-waiting full ones', () => {
    assert.deepEqual(ids(0), ['c1', 'c5']);
    assert.deepEqual(ids(1), ['c1', 'c3', 'c5']);
    assert.deepEqual(ids(2), ['c1', 'c3', 'c5', 'c6']);
    assert.deepEqual(ids(3), ['c1', 'c3', 'c4', 'c5', 'c6']);
    assert.deepEqual(ids(10), ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
  });

  it('works a backlog off over passes: each full cohort gets its turn', () => {
    let waiting = cohorts.filter((c) => c.full);
    const passes: string[][] = [];
    while (waiting.length > 0) {
      const done = cohortsThisPass(waiting, 2).map((c) => c.cohort_id);
      passes.push(done);
      waiting = waiting.filter((c) => !done.includes(c.cohort_id));
    }
    assert.deepEqual(passes, [
      ['c3', 'c6'],
      ['c2', 'c4'],
    ]);
  });
});
