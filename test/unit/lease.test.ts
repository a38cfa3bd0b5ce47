import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Lease, LeaseUnanswered } from '../../lib/lease.js';

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
  it('serves one read for its length from when the read started, then reads again', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 80);
    const first = [lease.get(), lease.get()];
    assert.equal(source.reads, 1, 'callers during a read share it');
    source.answer(1);
    assert.deepEqual(await Promise.all(first), [1, 1]);
    assert.equal(await lease.get(), 1);
    assert.equal(source.reads, 1);
    await sleep(90);
    const again = lease.get();
    assert.equal(source.reads, 2, 'an expired lease reads again');
    source.answer(2);
    assert.equal(await again, 2);
  });

  it('stops its callers waiting when the lease of the read ends, and never shares that read again', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 50);
    const start = performance.now();
    await assert.rejects(lease.get(), LeaseUnanswered);
    const waited = performance.now() - start;
    assert.ok(waited >= 45 && waited < 500, `waited ${Math.round(waited)} ms`);
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
    await sleep(220);
    assert.equal(await lease.get(), 1, 'served at once');
    assert.equal(await lease.get(), 1);
    assert.equal(source.reads, 2, 'one read ahead of the end, not one per caller');
    source.answer(2);
    await sleep(250); // past the first read's lease, in the second half of the second's
    assert.equal(await lease.get(), 2);
    assert.equal(source.reads, 3, 'served from the read ahead, itself read ahead in turn');
  });

  it('answers callers after the end from a read ahead that answers late, within its lease', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 400);
    const first = lease.get();
    source.answer(1);
    await first;
    await sleep(220);
    await lease.get(); // the read ahead starts, unanswered
    await sleep(200);
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
    await sleep(220);
    await lease.get(); // the read ahead starts and is never answered
    await sleep(200);
    const start = performance.now();
    await assert.rejects(lease.get(), LeaseUnanswered);
    const waited = performance.now() - start;
    assert.ok(waited < 300, `waited ${Math.round(waited)} ms, at most the rest of the read's lease`);
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
