import assert from 'node:assert/strict';
import { BackfillPace } from '../../lib/pacing.js';

/** A clock that moves only when work is done or a rest is taken. */
function fakeTime() {
  let now = 0;
  const rests: number[] = [];
  return {
    now: () => now,
    work: (ms: number) => (now += ms),
    rest: (ms: number) => {
      rests.push(ms);
      now += ms;
      return Promise.resolve();
    },
    rests,
    get elapsed() {
      return now;
    },
  };
}

describe('backfill pace', () => {
  it('rests after each step so the steps take the given share of the time', async () => {
    const time = fakeTime();
    const pace = new BackfillPace(0.25, time.now, time.rest);
    for (const ms of [40, 10, 100]) {
      time.work(ms);
      await pace.step();
    }
    assert.deepEqual(time.rests, [120, 30, 300]);
    assert.equal(150 / time.elapsed, 0.25, 'work was a quarter of the pass');
  });

  it('counts only the work since the previous step, not the rests', async () => {
    const time = fakeTime();
    const pace = new BackfillPace(0.5, time.now, time.rest);
    time.work(20);
    await pace.step();
    time.work(5);
    await pace.step();
    assert.deepEqual(time.rests, [20, 5]);
  });

  it('never rests at a share of 1 (explicit refreshes) and refuses a share outside (0, 1]', async () => {
    const time = fakeTime();
    const pace = new BackfillPace(1, time.now, time.rest);
    time.work(500);
    await pace.step();
    assert.deepEqual(time.rests, []);
    assert.throws(() => new BackfillPace(0), RangeError);
    assert.throws(() => new BackfillPace(1.5), RangeError);
  });
});
