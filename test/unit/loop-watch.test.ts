import assert from 'node:assert/strict';
import { watchEventLoop, yieldToLoop } from '../../lib/loop-watch.js';
import { FakeClock } from './fake-clock.js';

/** Holds this thread for `ms`, as a long synchronous step would. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('event-loop watch', () => {
  describe('on a fake clock', () => {
    const clock = new FakeClock();
    beforeEach(() => clock.install());
    afterEach(() => clock.uninstall());

    /** A watch of `thresholdMs` ticking every 20 ms, and what it warned. */
    const watching = (thresholdMs: number) => {
      const warnings: { held_ms: number }[] = [];
      const watch = watchEventLoop({ warn: (fields) => warnings.push(fields) }, thresholdMs, 20);
      return { warnings, stop: () => watch.stop() };
    };

    it('warns once for a hold past the threshold, with how long it lasted', async () => {
      const { warnings, stop } = watching(300);
      await clock.advance(60);
      clock.hold(600);
      await clock.advance(60);
      stop();
      // The tick due at 80 ran at 660: 580 ms later than the loop would have run it.
      assert.deepEqual(warnings, [{ held_ms: 580 }]);
    });

    it('warns for a hold of exactly the threshold and not for one just under it', async () => {
      const { warnings, stop } = watching(300);
      // Each hold starts right after a tick: the next tick, due 20 ms later, runs hold − 20 ms late.
      await clock.advance(20);
      clock.hold(319);
      await clock.advance(20);
      clock.hold(320);
      await clock.advance(20);
      stop();
      assert.deepEqual(warnings, [{ held_ms: 300 }]);
    });

    it('stays quiet while the loop turns, and says nothing once stopped', async () => {
      const { warnings, stop } = watching(400);
      for (let i = 0; i < 5; i++) {
        clock.hold(50);
        await clock.advance(20);
      }
      stop();
      clock.hold(1000);
      await clock.advance(100);
      assert.deepEqual(warnings, []);
    });
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
