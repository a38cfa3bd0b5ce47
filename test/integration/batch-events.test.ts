import assert from 'node:assert/strict';
import { createProducer } from '../../lib/kafka/client.js';
import { topicName } from '../../lib/kafka/topics.js';
import { batchConsumer, consumeBatches } from '../../processors/runtime/batch-consumer.js';
import { BatchEvents, type BatchStarted } from '../../processors/runtime/batch-events.js';
import { closeServices, isolateTopics, services } from './helpers.js';

describe("a step's batch events", () => {
  after(() => closeServices());

  it('reports a failed batch as retried with its classification, and the same offsets started again', async function () {
    this.timeout(90_000);
    await isolateTopics();
    const { kafka } = services();
    const topic = topicName('events');
    const producer = createProducer(kafka);
    await producer.connect();
    await producer.send({ topic, messages: ['a', 'b', 'c'].map((v) => ({ key: 'one-user', value: Buffer.from(v) })) });
    await producer.disconnect();

    const events = new BatchEvents();
    const started: BatchStarted[] = [];
    events.on('batch.started', (e) => started.push(e));
    const retried = events.when('batch.retried', () => true, AbortSignal.timeout(60_000));
    // Subscribed after the recorder: the second start is seen once it is recorded.
    const startedAgain = events.when('batch.started', () => started.length === 2, AbortSignal.timeout(60_000));
    const consumer = batchConsumer(kafka, `${topic}.events-test`, {
      fetchMinBytes: 1,
      fetchMaxWaitMs: 100,
      fetchMaxBytes: 1024 * 1024,
    });
    let calls = 0;
    try {
      await consumeBatches(
        consumer,
        topic,
        1,
        (payload) => {
          // A bug on the first try: kafkajs itself would stop the consumer for good on a TypeError.
          if (calls++ === 0) throw new TypeError('a bug of the first try');
          payload.resolveOffset(payload.batch.lastOffset());
          return Promise.resolve();
        },
        { processor: 'events-test', events },
      );
      const failure = await retried;
      assert.deepEqual(
        { code: failure.code, retriable: failure.retriable, processor: failure.processor, topic: failure.topic },
        { code: 'TypeError', retriable: false, processor: 'events-test', topic },
      );
      assert.ok(failure.error instanceof TypeError);
      const again = await startedAgain;
      assert.deepEqual(
        [again.partition, again.firstOffset, again.lastOffset, again.messages],
        [failure.partition, failure.firstOffset, failure.lastOffset, 3],
      );
      assert.deepEqual(
        started.map((s) => [s.firstOffset, s.lastOffset]),
        [
          [0, 2],
          [0, 2],
        ],
      );
    } finally {
      await consumer.disconnect();
    }
  });
});
