import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProducer } from '../../lib/kafka/client.js';
import { topicName } from '../../lib/kafka/topics.js';
import { batchConsumer, consumeBatches } from '../../processors/runtime/batch-consumer.js';
import { closeServices, isolateTopics, services } from './helpers.js';

describe('a batch that works longer than the group session timeout (10 s)', () => {
  after(() => closeServices());

  it('keeps its member in the group: no eviction, no second join', async function () {
    this.timeout(90_000);
    await isolateTopics();
    const { kafka } = services();
    const topic = topicName('events');
    const producer = createProducer(kafka);
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'k', value: Buffer.from('x') }] });
    await producer.disconnect();

    const consumer = batchConsumer(kafka, `${topic}.heartbeat-test`, {
      fetchMinBytes: 1,
      fetchMaxWaitMs: 100,
      fetchMaxBytes: 1024 * 1024,
    });
    let joins = 0;
    consumer.on(consumer.events.GROUP_JOIN, () => joins++);
    const errors: string[] = [];
    consumer.on(consumer.events.CRASH, ({ payload }) => errors.push(payload.error.message));
    try {
      let worked = false;
      await consumeBatches(consumer, topic, 1, async (payload) => {
        if (worked) return;
        await sleep(14_000); // e.g. a transaction of a large backlog on a busy machine
        payload.resolveOffset(payload.batch.lastOffset());
        worked = true;
      });
      const until = Date.now() + 40_000;
      while (!worked && Date.now() < until) await sleep(200);
      assert.ok(worked, 'the batch ran');
      // An evicted member learns it at its next heartbeat (every 3 s) and joins again.
      await sleep(5_000);
      assert.deepEqual({ joins, errors }, { joins: 1, errors: [] });
    } finally {
      await consumer.disconnect();
    }
  });
});
