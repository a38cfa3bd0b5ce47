import assert from 'node:assert/strict';
import { createProducer } from '../../lib/kafka/client.js';
import { registerValueSchema } from '../../lib/kafka/registry.js';
import { topicName } from '../../lib/kafka/topics.js';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { startProcessors } from '../../processors/main.js';
import type { RunningSink } from '../../processors/runtime/postgres-sink.js';
import {
  closeServices,
  count,
  isolateTopics,
  newProject,
  sealedEventMessage,
  services,
  waitForAnalytics,
} from './helpers.js';

/**
 * A batch's chains carry the users' held events as well as the new ones, so they can outgrow the
 * batch itself, and the broker refuses a record batch above 1 MB: the sessionizer must split its
 * sends (a refused send would be retried forever and stall the partition).
 */
describe('sessionize with chains larger than a broker request', () => {
  let sinks: RunningSink[] = [];
  after(async () => {
    await Promise.all(sinks.map((s) => s.stop()));
    await closeServices();
  });

  it('splits the sends of a transaction and applies every chain', async () => {
    await isolateTopics();
    const { projectId } = await newProject();
    const { kafka, registry } = services();
    const schemaId = await registerValueSchema(registry, 'events');
    const users = Array.from({ length: 60 }, (_, u) => `big-${u}`);
    const start = Date.UTC(2026, 10, 22, 9);
    const round = async (from: number) => {
      const producer = createProducer(kafka);
      await producer.connect();
      for (const user of users) {
        const messages = await Promise.all(
          Array.from({ length: 30 }, async (_, i) => {
            const record: TrackedEventRecord = {
              project_id: projectId,
              message_id: `${user}-${from + i}`,
              user_id: user,
              event: 'page_view',
              timestamp: start + (from + i) * 1000,
              received_at: Date.now(),
              properties: JSON.stringify({ page: '/big', note: `${user}-${i}-`.padEnd(1000, 'x') }),
            };
            const sealed = await sealedEventMessage(record);
            return { key: sealed.key, value: await registry.encode(schemaId, sealed.value) };
          }),
        );
        await producer.send({ topic: topicName('events'), messages });
      }
      await producer.disconnect();
    };
    sinks = await startProcessors(services(), ['analytics']);
    // First half: every user holds a chain of ~30 kB. Second half, sent while the processors are
    // stopped so that it comes in large batches: each chain doubles, ~1.2 MB of chains per partition.
    await round(0);
    await waitForAnalytics(60_000);
    await Promise.all(sinks.map((s) => s.stop()));
    await round(30);
    sinks = await startProcessors(services(), ['analytics']);
    await waitForAnalytics(60_000);

    assert.equal(await count('select 1 from session_events where project_id = $1', [projectId]), 60 * 60);
    assert.equal(await count('select 1 from sessions where project_id = $1 and events = 60', [projectId]), 60);
    assert.equal(await count('select 1 from sessions where project_id = $1', [projectId]), 60);
  });
});
