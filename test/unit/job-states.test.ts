import assert from 'node:assert/strict';
import { JOB_STATES, allowedMoves, canMove, type JobState } from '../../domain/jobs/states.js';

/**
 * The matrix documented in domain/jobs/states.ts, written out by hand (row = from, column = to):
 *   draft ──► active ◄──► paused; any state ──► active; active | paused ──► completed;
 *   any state but archived ──► archived; staying put is a no-op.
 */
const MATRIX: Record<JobState, Record<JobState, boolean>> = {
  draft: { draft: true, active: true, paused: false, completed: false, archived: true },
  active: { draft: false, active: true, paused: true, completed: true, archived: true },
  paused: { draft: false, active: true, paused: true, completed: true, archived: true },
  completed: { draft: false, active: true, paused: false, completed: true, archived: true },
  archived: { draft: false, active: true, paused: false, completed: false, archived: true },
};

describe('job states', () => {
  describe('canMove follows the documented matrix', () => {
    for (const from of JOB_STATES) {
      for (const to of JOB_STATES) {
        const expected = MATRIX[from][to];
        it(`${from} → ${to}: ${expected ? 'allowed' : 'conflict'}`, () => {
          assert.equal(canMove(from, to), expected);
        });
      }
    }
  });

  describe('same state is a no-op, never a conflict', () => {
    for (const state of JOB_STATES) {
      it(`${state} → ${state}`, () => {
        assert.equal(canMove(state, state), true);
      });
    }
  });

  describe('spec rule: any state → active', () => {
    for (const from of JOB_STATES) {
      it(`${from} → active`, () => {
        assert.equal(canMove(from, 'active'), true);
      });
    }
  });

  describe('nothing returns to draft', () => {
    for (const from of JOB_STATES.filter((s) => s !== 'draft')) {
      it(`${from} → draft is a conflict`, () => {
        assert.equal(canMove(from, 'draft'), false);
      });
    }
  });

  describe('allowedMoves lists exactly the other states canMove allows', () => {
    const expected: Record<JobState, JobState[]> = {
      draft: ['active', 'archived'],
      active: ['paused', 'completed', 'archived'],
      paused: ['active', 'completed', 'archived'],
      completed: ['active', 'archived'],
      archived: ['active'],
    };
    for (const from of JOB_STATES) {
      it(`from ${from}`, () => {
        assert.deepEqual([...allowedMoves(from)].sort(), [...expected[from]].sort());
        assert.deepEqual(
          [...allowedMoves(from)].sort(),
          JOB_STATES.filter((to) => to !== from && canMove(from, to)).sort(),
        );
      });
    }
  });
});
