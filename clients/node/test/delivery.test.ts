import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type WireEvent } from '../dist/index.js';
import { RUN, client, faultProxy, storedRows, unique, waitFor } from './support.js';

describe('delivery of tracked events', () => {
  const reader = client();

  it('stores a tracked event under the message id the caller gave', async () => {
    const tracker = client({ flushInterval: 50 });
    const event = unique('stored');
    const messageId = unique('m');
    const returned = tracker.track({
      userId: `${RUN}-u1`,
      event,
      properties: { plan: 'pro' },
      messageId,
      timestamp: new Date(),
    });
    assert.equal(returned, messageId);
    assert.equal(await tracker.flush(30_000), true);
    const rows = await waitFor(
      'the event in the export',
      async () => (await storedRows(reader, event, [messageId]))[0],
    );
    assert.deepEqual([rows.user_id, rows.event, rows.properties], [`${RUN}-u1`, event, { plan: 'pro' }]);
    assert.deepEqual([tracker.deliveredCount, tracker.failedCount, tracker.droppedCount], [1, 0, 0]);
    await tracker.shutdown();
  });

  it('hands a refused event to onError with the service 400 and stores the rest of its batch', async () => {
    const calls: [Error, WireEvent[]][] = [];
    const tracker = client({ flushInterval: 60_000, onError: (error, events) => calls.push([error, events]) });
    const event = unique('batch');
    const good = [0, 1, 2].map((i) => tracker.track({ userId: `${RUN}-u2`, event, properties: { i } }));
    const bad = tracker.track({ userId: `${RUN}-u2`, event: '', properties: { i: 'bad' } });
    good.push(tracker.track({ userId: `${RUN}-u2`, event, properties: { i: 3 } }));
    assert.equal(await tracker.flush(30_000), true);
    assert.equal(calls.length, 1);
    const [error, events] = calls[0]!;
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.details.field], [400, 'invalid_request', 'events[3].event']);
    assert.deepEqual(
      events.map((e) => e.message_id),
      [bad],
    );
    assert.deepEqual([tracker.deliveredCount, tracker.failedCount], [4, 1]);
    const rows = await waitFor('the 4 good events', async () => {
      const found = await storedRows(reader, event, good);
      return found.length === 4 && found;
    });
    assert.deepEqual(rows.map((r) => r.message_id).sort(), [...good].sort());
    await tracker.shutdown();
  });

  it('retries with the same message id, waits out Retry-After, and the event is stored once', async () => {
    const proxy = await faultProxy([
      [503, {}],
      [429, { 'Retry-After': '1' }],
    ]);
    try {
      const tracker = client({ host: proxy.baseUrl, flushInterval: 0, retryBaseDelay: 50, retryMaxDelay: 200 });
      const event = unique('retried');
      const messageId = unique('m');
      tracker.track({ userId: `${RUN}-u3`, event, messageId });
      assert.equal(await tracker.flush(30_000), true);
      await tracker.shutdown();
      const attempts = proxy.seen.filter((s) => s.path === '/v1/events/batch');
      assert.equal(attempts.length, 3, '503, then 429, then forwarded');
      const ids = attempts.map((a) => (JSON.parse(a.body) as { events: WireEvent[] }).events.map((e) => e.message_id));
      assert.deepEqual(ids, [[messageId], [messageId], [messageId]]);
      assert.ok(attempts[2]!.at - attempts[1]!.at >= 1000, 'Retry-After: 1 waited out');
      assert.deepEqual([tracker.deliveredCount, tracker.failedCount], [1, 0]);
      await waitFor('the retried event', async () => (await storedRows(reader, event, [messageId])).length > 0);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal((await storedRows(reader, event, [messageId])).length, 1, 'stored once');
    } finally {
      await proxy.close();
    }
  });

  it('cuts requests at 1,000 events and at 1 MiB, and the service takes each', async () => {
    const proxy = await faultProxy();
    try {
      const tracker = client({ host: proxy.baseUrl, batchSize: 1000, flushInterval: 60_000, maxQueueSize: 2000 });
      const small = unique('small');
      const smallIds = Array.from({ length: 1001 }, (_, i) =>
        tracker.track({ userId: `${RUN}-u6`, event: small, properties: { i } }),
      );
      assert.equal(await tracker.flush(60_000), true);
      // About 4 kB each, 300 of them: more than 1 MiB; one user each, so Kafka batches spread over partitions.
      for (let i = 0; i < 300; i++) {
        tracker.track({ userId: `${RUN}-u6-${i}`, event: unique('big'), properties: { i, blob: 'x'.repeat(4000) } });
      }
      assert.equal(await tracker.flush(60_000), true);
      await tracker.shutdown();
      const bodies = proxy.seen.map((s) => s.body);
      const counts = bodies.map((b) => (JSON.parse(b) as { events: unknown[] }).events.length);
      assert.deepEqual(counts.slice(0, 2), [1000, 1]);
      assert.equal(counts.length, 4, '300 events of 4 kB: two requests');
      assert.equal(counts[2]! + counts[3]!, 300);
      assert.ok(bodies.every((b) => Buffer.byteLength(b) <= 1_048_576));
      const firstOfNext = JSON.stringify((JSON.parse(bodies[3]!) as { events: unknown[] }).events[0]);
      assert.ok(
        Buffer.byteLength(bodies[2]!) + 1 + Buffer.byteLength(firstOfNext) > 1_048_576,
        'the next would not fit',
      );
      assert.deepEqual([tracker.deliveredCount, tracker.failedCount], [1301, 0]);
      const rows = await waitFor('the 1,001 small events', async () => {
        const found = await storedRows(reader, small, smallIds);
        return found.length === 1001 && found;
      });
      assert.equal(rows.length, 1001);
    } finally {
      await proxy.close();
    }
  });

  it('a full queue drops the oldest, never blocks, and delivers the newest', async () => {
    const tracker = client({ maxQueueSize: 3, flushInterval: 60_000 });
    const event = unique('bounded');
    const started = performance.now();
    const ids = Array.from({ length: 8 }, (_, i) => tracker.track({ userId: `${RUN}-u4`, event, properties: { i } }));
    assert.ok(performance.now() - started < 100, 'track returns at once');
    assert.equal(tracker.droppedCount, 5);
    assert.equal(await tracker.flush(30_000), true);
    assert.equal(tracker.deliveredCount, 3);
    const rows = await waitFor('the 3 newest events', async () => {
      const found = await storedRows(reader, event, ids);
      return found.length === 3 && found;
    });
    assert.deepEqual(rows.map((r) => r.message_id).sort(), ids.slice(5).sort());
    await tracker.shutdown();
  });

  it('gives up on a service that does not answer, through onError, without throwing', async () => {
    const calls: Error[] = [];
    // Nothing listens on port 9 (discard) on the loopback: every attempt is a network error.
    const tracker = client({
      host: 'http://127.0.0.1:9',
      maxRetries: 2,
      retryBaseDelay: 10,
      onError: (e) => calls.push(e),
    });
    tracker.track({ userId: `${RUN}-u5`, event: unique('lost') });
    assert.equal(await tracker.flush(10_000), true);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.name, 'NetworkError');
    assert.deepEqual([tracker.deliveredCount, tracker.failedCount], [0, 1]);
    await tracker.shutdown();
    tracker.track({ userId: `${RUN}-u5`, event: 'after_shutdown' });
    assert.equal(tracker.failedCount, 2, 'an event after shutdown is given up, not thrown');
  });
});
