import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Lease } from '../../lib/lease.js';

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

  it('never shares a read that started a lease ago or more', async () => {
    const source = controlledRead();
    const lease = new Lease(source.read, 50);
    const slow = lease.get();
    await sleep(60);
    const fresh = lease.get();
    assert.equal(source.reads, 2, 'a caller after the lease does not wait for the old read');
    source.answer(1);
    source.answer(2);
    assert.deepEqual(await Promise.all([slow, fresh]), [1, 2]);
    // The later read is kept, though the old one finished too.
    assert.equal(await lease.get(), 2);
    assert.equal(source.reads, 2);
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
