import assert from 'node:assert/strict';
import { Lease, LeaseUnanswered } from '../../lib/lease.js';
import { FakeClock } from './fake-clock.js';

/** A read that answers when told to, counting the reads started. */
function controlledRead() {
  const pending: ((value: number) => void)[] = [];
  let reads = 0;
  return {
    read: () => new Promise<number>((resolve) => (reads++, pending.push(resolve))),
    answer: (value: number) => pending.shift()!(value),
    get reads() {
      return reads;
    },
  };
}

describe('Lease', () => {
  // The lease's time comes from the fake clock: every boundary is checked to the millisecond.
  const clock = new FakeClock();
  beforeEach(() => clock.install());
  afterEach(() => clock.uninstall());

  /** Whether `promise` has settled yet, and how. */
  const state = (promise: Promise<unknown>) => {
    const seen = { settled: false, error: undefined as unknown };
    promise.then(
      () => (seen.settled = true),
      (err: unknown) => ((seen.settled = true), (seen.error = err)),
    );
    return seen;
  };

  it('serves one read for its length from when the read started, then reads again', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 80);
    const first = [lease.get(), lease.get()];
    assert.equal(source.reads, 1, 'callers during a read share it');
    await clock.advance(10);
    source.answer(1);
    assert.deepEqual(await Promise.all(first), [1, 1]);
    await clock.advance(29);
    assert.equal(await lease.get(), 1, 'served in its first half without reading');
    assert.equal(source.reads, 1);
    await clock.advance(41);
    const again = lease.get();
    assert.equal(source.reads, 2, 'expired 80 ms after the read started: read again');
    source.answer(2);
    assert.equal(await again, 2);
  });

  it('stops its callers waiting when the lease of the read ends, and never shares that read again', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 50);
    const waiting = lease.get();
    const seen = state(waiting);
    await clock.advance(49);
    assert.equal(seen.settled, false, 'still within the lease');
    await clock.advance(1);
    assert.ok(seen.error instanceof LeaseUnanswered, 'refused when the lease would end');
    await assert.rejects(waiting, LeaseUnanswered);
    const fresh = lease.get();
    assert.equal(source.reads, 2, 'a caller after the lease does not wait for the old read');
    source.answer(1);
    source.answer(2);
    assert.equal(await fresh, 2);
    // The later read is kept, though the old one finished too.
    assert.equal(await lease.get(), 2);
    assert.equal(source.reads, 2);
  });

  it('reads a value in use again in its second half, so that callers after its end wait for nothing', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 400);
    const first = lease.get();
    source.answer(1);
    assert.equal(await first, 1);
    await clock.advance(199);
    assert.equal(await lease.get(), 1);
    assert.equal(source.reads, 1, 'no read ahead in the first half');
    await clock.advance(1);
    assert.equal(await lease.get(), 1, 'served at once');
    assert.equal(await lease.get(), 1);
    assert.equal(source.reads, 2, 'one read ahead of the end, not one per caller');
    source.answer(2); // read at 200: its lease runs to 600
    await clock.advance(250); // past the first read's lease, in the second half of the second's
    assert.equal(await lease.get(), 2);
    assert.equal(source.reads, 3, 'served from the read ahead, itself read ahead in turn');
  });

  it('answers callers after the end from a read ahead that answers late, within its lease', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 400);
    const first = lease.get();
    source.answer(1);
    await first;
    await clock.advance(220);
    await lease.get(); // the read ahead starts at 220, unanswered
    await clock.advance(200);
    const late = lease.get();
    assert.equal(source.reads, 2, 'the caller shares the read ahead');
    source.answer(2);
    assert.equal(await late, 2);
  });

  it('refuses callers after the end once the read ahead outlives its lease (Postgres stopped)', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 400);
    const first = lease.get();
    source.answer(1);
    await first;
    await clock.advance(220);
    await lease.get(); // the read ahead starts at 220 and is never answered
    await clock.advance(200);
    const refused = lease.get();
    const seen = state(refused);
    assert.equal(source.reads, 2, 'the caller shares the read ahead');
    await clock.advance(199);
    assert.equal(seen.settled, false);
    await clock.advance(1);
    assert.ok(seen.error instanceof LeaseUnanswered, "refused at the end of the read ahead's lease, 620 ms");
    await assert.rejects(refused, LeaseUnanswered);
  });

  it('keeps no failed read: the next caller reads again', async () => {
    let reads = 0;
    const lease = new Lease(
      () => (++reads === 1 ? Promise.reject(new Error('postgres is down')) : Promise.resolve(7)),
      1000,
    );
    await assert.rejects(lease.get(), /postgres is down/);
    assert.equal(await lease.get(), 7);
    assert.equal(reads, 2);
  });
});
