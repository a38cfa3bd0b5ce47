import assert from 'node:assert/strict';
import { createLogger } from '../../lib/log.js';
import { wakeLoop } from '../../lib/notify.js';
import type { RunShare } from '../../lib/pacing.js';
import { capturedLog } from './captured-log.js';
import { FakeClock, settle } from './fake-clock.js';

describe('wake loop', () => {
  // Runs last as long as the test says and rests are timed on the fake clock: each gap is exact.
  const clock = new FakeClock();
  beforeEach(() => clock.install());
  afterEach(() => clock.uninstall());

  /** A loop whose runs end when the test ends them, recording when each started and ended. */
  function controlledLoop(pace?: RunShare) {
    const runs: { start: number; end?: number; finish: () => void }[] = [];
    const loop = wakeLoop(
      () =>
        new Promise<void>((resolve) => {
          const run = {
            start: clock.now(),
            end: undefined as number | undefined,
            finish: () => {
              run.end = clock.now();
              resolve();
            },
          };
          runs.push(run);
        }),
      createLogger('silent'),
      pace,
    );
    /** Lets the run in progress take `ms`, then ends it. */
    const runFor = async (ms: number) => {
      await clock.advance(ms);
      runs.at(-1)!.finish();
      await settle();
    };
    return { loop, runs, runFor };
  }

  it('without a pace, a wake during a run makes one more run right after it', async () => {
    const { loop, runs, runFor } = controlledLoop();
    loop.wake();
    await clock.advance(10);
    loop.wake();
    loop.wake();
    await runFor(30);
    assert.equal(runs.length, 2, 'the two wakes coalesced into one more run');
    assert.equal(runs[1]!.start, runs[0]!.end, 'no rest');
    await runFor(40);
    await clock.advance(1000);
    assert.equal(runs.length, 2, 'nothing woke it since');
    await loop.stop();
  });

  it('with a share, rests after a run in proportion to it, and wakes in the rest wait for its end', async () => {
    const { loop, runs, runFor } = controlledLoop({ share: 0.25, maxRestMs: 10_000 });
    loop.wake();
    await clock.advance(20);
    loop.wake();
    await runFor(20);
    await clock.advance(20);
    loop.wake(); // in the rest
    // Three times the run's 40 ms: the runs take a quarter of the time.
    await clock.advance(99);
    assert.equal(runs.length, 1, 'resting');
    await clock.advance(1);
    assert.equal(runs.length, 2);
    assert.equal(runs[1]!.start - runs[0]!.end!, 120);
    await runFor(40);
    await clock.advance(1000);
    assert.equal(runs.length, 2, 'the wakes during the first run and its rest made one run');
    await loop.stop();
  });

  it('rests no longer than its longest rest', async () => {
    const { loop, runs, runFor } = controlledLoop({ share: 0.01, maxRestMs: 30 });
    loop.wake();
    loop.wake();
    await runFor(40);
    await clock.advance(29);
    assert.equal(runs.length, 1);
    await clock.advance(1);
    assert.equal(runs.length, 2);
    assert.equal(runs[1]!.start - runs[0]!.end!, 30, 'not the 3,960 ms its share asks');
    runs[1]!.finish();
    await loop.stop();
  });

  it('a wake with `now` cuts the rest short', async () => {
    const { loop, runs, runFor } = controlledLoop({ share: 0.01, maxRestMs: 60_000 });
    loop.wake();
    await runFor(40);
    await clock.advance(40);
    assert.equal(runs.length, 1, 'resting');
    loop.wake(true);
    await settle();
    assert.equal(runs.length, 2);
    assert.equal(runs[1]!.start - runs[0]!.end!, 40);
    runs[1]!.finish();
    await loop.stop();
  });

  it('a wake with `now` during a run skips the rest after it', async () => {
    const { loop, runs, runFor } = controlledLoop({ share: 0.01, maxRestMs: 60_000 });
    loop.wake();
    await clock.advance(10);
    loop.wake(true);
    await runFor(30);
    assert.equal(runs.length, 2);
    assert.equal(runs[1]!.start, runs[0]!.end, 'no rest');
    runs[1]!.finish();
    await loop.stop();
  });

  it('stop does not wait out a rest', async () => {
    const { loop, runs, runFor } = controlledLoop({ share: 0.01, maxRestMs: 60_000 });
    loop.wake();
    loop.wake();
    await runFor(40);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await settle();
    assert.ok(stopped, 'stopped with the clock where it was');
    await stopping;
    assert.equal(runs.length, 1, 'the wake waiting for the rest is dropped');
  });

  it('runs again at once after losing a race with another transaction, logged at info; other failures wait for a wake', async () => {
    const { log, lines } = capturedLog();
    const failures = [Object.assign(new Error('could not serialize access'), { code: '40001' }), new Error('broken')];
    let runs = 0;
    const loop = wakeLoop(() => {
      runs++;
      const failure = failures.shift();
      return failure ? Promise.reject(failure) : Promise.resolve();
    }, log);
    loop.wake();
    await settle();
    await settle();
    assert.equal(runs, 2, 'the lost race ran again without a wake');
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [
        [30, 'run met a concurrent transaction; running it again'],
        [50, 'run failed; retried at the next wake-up'],
      ],
    );
    await clock.advance(1000);
    assert.equal(runs, 2, 'the other failure waits for the next wake');
    loop.wake();
    await settle();
    assert.equal(runs, 3);
    await loop.stop();
  });
});
