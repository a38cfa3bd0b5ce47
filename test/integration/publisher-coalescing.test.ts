import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Publisher } from '../../api/publisher.js';
import { toRecord } from '../../domain/tracked-event.js';
import type { Kafka } from '../../lib/kafka/client.js';
import { topicName, userKey } from '../../lib/kafka/topics.js';
import { createLogger } from '../../lib/log.js';
import { closeServices, isolateTopics, services, withAdmin } from './helpers.js';

/**
 * npm run faults found it (docs/reliability.md): the idempotent producer has one request in
 * flight, so one produce request per HTTP request capped ingest at one request per round trip,
 * and after a broker restart the backlog outlived the outage by a minute. Concurrent publishes now
 * share produce requests.
 */
describe('publisher: concurrent publishes share produce requests', function () {
  this.timeout(60_000);
  let produceRequests = 0;
  let publisher: Publisher;

  before(async () => {
    await isolateTopics();
    const kafka = services().kafka;
    // The same client, its producers counting their Produce requests (kafkajs instrumentation).
    const counting = Object.create(kafka, {
      producer: {
        value: (config: Parameters<Kafka['producer']>[0]) => {
          const producer = kafka.producer(config);
          producer.on(producer.events.REQUEST, ({ payload }) => {
            if (payload.apiName === 'Produce') produceRequests++;
          });
          return producer;
        },
      },
    }) as Kafka;
    publisher = await Publisher.start(counting, services().registry, createLogger('silent'), ['events'], {
      deadlineMs: 10_000,
    });
  });

  after(async () => {
    await publisher?.stop();
    await closeServices();
  });

  it('sends 200 concurrent one-event publishes in far fewer produce requests, every event stored', async () => {
    const projectId = crypto.randomUUID();
    const ends = () =>
      withAdmin(async (admin) =>
        (await admin.fetchTopicOffsets(topicName('events'))).reduce((n, p) => n + Number(p.high), 0),
      );
    const before = await ends();
    produceRequests = 0;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const record = toRecord(projectId, { user_id: `u${i % 7}`, event: 'clicked' }, Date.now());
        return publisher.publish('events', [
          { key: userKey(projectId, record.user_id), value: record, timestamp: record.received_at },
        ]);
      }),
    );
    assert.equal((await ends()) - before, 200, 'every event in the topic');
    // Before: 200 produce requests, one per publish.
    assert.ok(produceRequests <= 20, `${produceRequests} produce requests`);
  });
});
