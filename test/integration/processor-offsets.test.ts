import assert from 'node:assert/strict';
import { createProducer } from '../../lib/kafka/client.js';
import { topicName } from '../../lib/kafka/topics.js';
import { startProcessors } from '../../processors/main.js';
import { closeServices, isolateTopics, services } from './helpers.js';

describe('a processor whose stored offsets are outside its topic', () => {
  after(() => closeServices());

  it('refuses to start and says to replay, instead of skipping new messages', async () => {
    await isolateTopics();
    await services().db.query(
      `insert into processor_offsets (processor, topic, partition, next_offset) values ('raw-sink', $1, 0, 50000)`,
      [topicName('events')],
    );
    await assert.rejects(startProcessors(services(), ['raw-sink']), /outside the topic.*recreated.*npm run replay/);
  });

  it('refuses to start when messages it has not applied expired (a derived topic keeps a week)', async () => {
    await isolateTopics();
    const { kafka } = services();
    const producer = createProducer(kafka);
    await producer.connect();
    await producer.send({
      topic: topicName('sessions'),
      messages: [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from([i]), partition: 0 })),
    });
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.fetchTopicMetadata({ topics: [topicName('sessions')] }); // deleteTopicRecords needs it loaded
    await admin.deleteTopicRecords({ topic: topicName('sessions'), partitions: [{ partition: 0, offset: '2' }] });
    await admin.disconnect();
    await assert.rejects(
      startProcessors(services(), ['analytics']),
      /pi\.sessions\.v1 are outside the topic \(partition 0: 0 < 2, messages expired unapplied\).*npm run replay/,
    );
  });
});
