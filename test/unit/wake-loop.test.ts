import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../lib/log.js';
import { wakeLoop } from '../../lib/notify.js';
import type { RunShare } from '../../lib/pacing.js';

/** A loop whose runs each take `ms`, recording when each started and ended. */
function timedLoop(ms: number, pace?: RunShare) {
  const runs: { start: number; end: number }[] = [];
  const loop = wakeLoop(
    async () => {
      const start = performance.now();
      await sleep(ms);
      runs.push({ start, end: performance.now() });
    },
    createLogger('silent'),
    pace,
  );
  return { loop, runs };
}

/** The time between the end of the first of exactly two runs and the start of the second. */
function gapOfTwo(runs: { start: number; end: number }[]): number {
  assert.equal(runs.length, 2, 'the wakes coalesced into one more run');
  return runs[1]!.start - runs[0]!.end;
}

describe('wake loop', () => {
  it('without a pace, a wake during a run makes one more run right after it', async () => {
    const { loop, runs } = timedLoop(40);
    loop.wake();
    await sleep(10);
    loop.wake();
    loop.wake();
    await sleep(150);
    await loop.stop();
    const gap = gapOfTwo(runs);
    assert.ok(gap < 20, `no rest: ${gap} ms`);
  });

  it('with a share, rests after a run in proportion to it, and wakes in the rest wait for its end', async () => {
    const { loop, runs } = timedLoop(40, { share: 0.25, maxRestMs: 10_000 });
    loop.wake();
    await sleep(60);
    loop.wake();
    await sleep(20);
    loop.wake();
    await sleep(250);
    await loop.stop();
    const gap = gapOfTwo(runs);
    // Three times the run's 40+ ms: the runs took a quarter of the time.
    assert.ok(gap >= 115, `rested ${gap} ms`);
  });

  it('rests no longer than its longest rest', async () => {
    const { loop, runs } = timedLoop(40, { share: 0.01, maxRestMs: 30 });
    loop.wake();
    await sleep(50);
    loop.wake();
    await sleep(150);
    await loop.stop();
    const gap = gapOfTwo(runs);
    assert.ok(gap >= 25 && gap < 100, `rested ${gap} ms, not the 4 s its share asks`);
  });

  it('a wake with `now` cuts the rest short, or skips it when it comes during the run', async () => {
    const resting = timedLoop(40, { share: 0.01, maxRestMs: 60_000 });
    resting.loop.wake();
    await sleep(80);
    resting.loop.wake(true);
    await sleep(80);
    const during = timedLoop(40, { share: 0.01, maxRestMs: 60_000 });
    during.loop.wake();
    await sleep(10);
    during.loop.wake(true);
    await sleep(100);
    const stopStarted = performance.now();
    const stopping = Promise.all([resting.loop.stop(), during.loop.stop()]);
    for (const { runs } of [resting, during]) {
      const gap = gapOfTwo(runs);
      assert.ok(gap < 50, `waited ${gap} ms`);
    }
    await stopping;
    assert.ok(performance.now() - stopStarted < 100, 'stop does not wait out a rest');
  });
});
