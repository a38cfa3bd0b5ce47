import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { createProducer } from '../../lib/kafka/client.js';
import { registerValueSchema } from '../../lib/kafka/registry.js';
import { topicName } from '../../lib/kafka/topics.js';
import { rawSink } from '../../processors/raw-sink/runner.js';
import { BatchEvents } from '../../processors/runtime/batch-events.js';
import { type RunningSink, runPostgresSink } from '../../processors/runtime/postgres-sink.js';
import { closeServices, count, isolateTopics, newProject, sealedEventMessage, services } from './helpers.js';

const BACKLOG = 2_500;

describe("a sink's transactions under a backlog", () => {
  let running: RunningSink | undefined;
  after(async () => {
    await running?.stop();
    await closeServices();
  });

  /**
   * Applies the backlog of a fresh namespace with the raw sink in chunks of `chunk`; the messages of
   * each of its transactions, once the one holding the last offset has committed.
   */
  const drain = async (chunk: number, projectId: string): Promise<number[]> => {
    const events = new BatchEvents();
    const sizes: number[] = [];
    events.on('batch.flushed', (e) => sizes.push(e.messages));
    const drained = events.when('batch.flushed', (e) => e.to === BACKLOG - 1, AbortSignal.timeout(60_000));
    running = await runPostgresSink({ ...rawSink, chunk }, { ...services(), events });
    await drained;
    await running.stop();
    running = undefined;
    assert.equal(await count('select 1 from raw_events where project_id = $1', [projectId]), BACKLOG);
    return sizes;
  };

  it('applies a fetch in transactions of at most the sink’s chunk of messages', async function () {
    this.timeout(180_000);
    const sizesBy = new Map<number, number[]>();
    for (const chunk of [1_000, 5_000]) {
      await isolateTopics();
      const { projectId } = await newProject();
      const { kafka, registry } = services();
      const schemaId = await registerValueSchema(registry, 'events');
      const user = (i: number) => `chunk-user-${i % 50}`;
      const messages = await Promise.all(
        Array.from({ length: BACKLOG }, async (_, i) => {
          const record: TrackedEventRecord = {
            project_id: projectId,
            message_id: crypto.randomUUID(),
            user_id: user(i),
            event: 'click',
            timestamp: Date.now() - (BACKLOG - i) * 1000,
            received_at: Date.now(),
            properties: '{}',
          };
          const { key, value } = await sealedEventMessage(record);
          return { key, value: await registry.encode(schemaId, value), partition: 0 };
        }),
      );
      const producer = createProducer(kafka);
      await producer.connect();
      // In sends of 500: one record batch above 1 MB is refused.
      for (let i = 0; i < messages.length; i += 500) {
        await producer.send({ topic: topicName('events'), messages: messages.slice(i, i + 500) });
      }
      await producer.disconnect();
      sizesBy.set(chunk, await drain(chunk, projectId));
    }
    const small = sizesBy.get(1_000)!;
    const large = sizesBy.get(5_000)!;
    assert.equal(
      small.reduce((a, b) => a + b, 0),
      BACKLOG,
    );
    assert.ok(
      small.every((n) => n <= 1_000),
      `chunks of 1,000 at most: ${small.join(', ')}`,
    );
    assert.ok(small.length >= 3, `2,500 messages in three transactions at least: ${small.join(', ')}`);
    assert.ok(Math.max(...large) > 1_000, `a chunk of 5,000 takes more of the fetch at once: ${large.join(', ')}`);
    assert.equal(
      large.reduce((a, b) => a + b, 0),
      BACKLOG,
    );
  });
});
