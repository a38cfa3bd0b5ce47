import assert from 'node:assert/strict';
import {
  FIRST_RECOMPUTE_MS,
  RECOMPUTE_AFTER_MS,
  SETTLED_USERS,
  recomputeWaitMs,
} from '../../workers/behavioural-cohorts/schedule.js';

describe('behavioural cohorts: when a project is recomputed', () => {
  it('looks at an empty or small project again within 30 s, well inside two minutes', () => {
    assert.equal(FIRST_RECOMPUTE_MS, 30_000);
    for (const users of [0, 1, 9, 100, 500]) assert.equal(recomputeWaitMs(users), FIRST_RECOMPUTE_MS, `${users}`);
  });

  it('waits in proportion to the users in between, so the users recomputed per minute stay bounded', () => {
    assert.equal(recomputeWaitMs(SETTLED_USERS / 2), RECOMPUTE_AFTER_MS / 2);
    for (const users of [1000, 2500, 5000, 9999]) {
      const perMinute = (users / recomputeWaitMs(users)) * 60_000;
      assert.ok(perMinute <= (SETTLED_USERS / RECOMPUTE_AFTER_MS) * 60_000 + 1e-9, `${users}: ${perMinute}`);
    }
  });

  it('never waits longer than ten minutes, however large the project', () => {
    for (const users of [SETTLED_USERS, 100_000, 10_000_000]) assert.equal(recomputeWaitMs(users), RECOMPUTE_AFTER_MS);
  });

  it('is monotonic in the users', () => {
    let last = 0;
    for (let users = 0; users <= 20_000; users += 250) {
      const wait = recomputeWaitMs(users);
      assert.ok(wait >= last);
      last = wait;
    }
  });
});
