import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProducer } from '../../lib/kafka/client.js';
import { topicName } from '../../lib/kafka/topics.js';
import { batchConsumer, consumeBatches } from '../../processors/runtime/batch-consumer.js';
import { closeServices, isolateTopics, services } from './helpers.js';

const MiB = 1024 * 1024;

describe("a processor's fetch under a backlog", () => {
  after(() => closeServices());

  // 40 records of 64 KiB on one partition, each sent alone (a record batch above 1 MB is refused).
  const backlog = async (topic: string) => {
    const producer = createProducer(services().kafka);
    await producer.connect();
    try {
      for (let i = 0; i < 40; i++) {
        await producer.send({ topic, messages: [{ key: 'one-user', value: Buffer.alloc(64 * 1024, i) }] });
      }
    } finally {
      await producer.disconnect();
    }
  };

  /** The number of records in the first batch a consumer with this fetch size gets. */
  const firstBatch = async (topic: string, group: string, fetchMaxBytes: number) => {
    const consumer = batchConsumer(services().kafka, group, { fetchMinBytes: 1, fetchMaxWaitMs: 100, fetchMaxBytes });
    let size: number | undefined;
    try {
      await consumeBatches(consumer, topic, 1, ({ batch }) => {
        size ??= batch.messages.length;
        return Promise.resolve();
      });
      const until = Date.now() + 30_000;
      while (size === undefined && Date.now() < until) await sleep(100);
    } finally {
      await consumer.disconnect();
    }
    assert.ok(size !== undefined, 'a batch arrived');
    return size;
  };

  it('takes PI_FETCH_MAX_BYTES of a partition at once: larger batches under a backlog', async function () {
    this.timeout(90_000);
    await isolateTopics();
    const topic = topicName('events');
    await backlog(topic);
    const small = await firstBatch(topic, `${topic}.fetch-1m`, MiB);
    const large = await firstBatch(topic, `${topic}.fetch-8m`, 8 * MiB);
    assert.ok(small <= 17, `a 1 MiB fetch took ${small} records of 64 KiB`);
    assert.equal(large, 40, 'an 8 MiB fetch takes the whole 2.5 MiB backlog');
  });
});
