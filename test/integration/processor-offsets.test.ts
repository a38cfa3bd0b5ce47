import assert from 'node:assert/strict';
import { topicName } from '../../lib/topics.js';
import { startProcessors } from '../../processors/main.js';
import { closeServices, isolateTopics, services } from './helpers.js';

describe('a processor whose stored offsets are past the end of its topic', () => {
  after(() => closeServices());

  it('refuses to start and says to replay, instead of skipping new messages', async () => {
    await isolateTopics();
    await services().db.query(
      `insert into processor_offsets (processor, topic, partition, next_offset) values ('raw-sink', $1, 0, 50000)`,
      [topicName('events')],
    );
    await assert.rejects(startProcessors(services(), ['raw-sink']), /past the end of the topic.*npm run replay/);
  });
});
