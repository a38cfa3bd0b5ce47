import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchEventLoop, yieldToLoop } from '../../lib/loop-watch.js';

/** Holds this thread for `ms`, as a long synchronous step would. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('event-loop watch', () => {
  it('warns once for a hold past the threshold, with how long it lasted', async () => {
    const warnings: { held_ms: number }[] = [];
    const watch = watchEventLoop({ warn: (fields) => warnings.push(fields) }, 300, 20);
    try {
      await sleep(60);
      hold(600);
      await sleep(60);
    } finally {
      watch.stop();
    }
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.ok(warnings[0]!.held_ms >= 300 && warnings[0]!.held_ms <= 1500, `held ${warnings[0]!.held_ms} ms`);
  });

  it('stays quiet while the loop turns', async () => {
    const warnings: unknown[] = [];
    const watch = watchEventLoop({ warn: (fields) => warnings.push(fields) }, 400, 20);
    try {
      for (let i = 0; i < 5; i++) {
        hold(50);
        await sleep(20);
      }
    } finally {
      watch.stop();
    }
    assert.deepEqual(warnings, []);
  });

  it('lets a due timer run between stages where awaiting a resolved promise does not', async () => {
    const stages = async (between: () => Promise<void>) => {
      let fired = false;
      const timer = setTimeout(() => (fired = true), 0);
      hold(20); // the timer is due
      const seen: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        await between();
        seen.push(fired);
      }
      clearTimeout(timer);
      return seen;
    };
    assert.deepEqual(await stages(() => Promise.resolve()), [false, false, false]);
    assert.deepEqual(await stages(yieldToLoop), [true, true, true]);
  });
});
