import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { topicName } from '../../lib/kafka/topics.js';
import { call, count, newProject, startPipeline, stopPipeline, type TestPipeline, waitForSink } from './helpers.js';

describe("a batch of one user's events close to the body limit", () => {
  let pipeline: TestPipeline;

  before(async () => {
    pipeline = await startPipeline(['raw-sink']);
  });

  after(() => stopPipeline(pipeline));

  it('is stored whole: one user (one partition) may send more than the broker takes in one record batch', async () => {
    const { projectId, keys } = await newProject(['events:write']);
    const user = `heavy-${crypto.randomUUID()}`;
    // Under the 1 MiB body limit as JSON; as Avro records of one partition, above the broker's 1 MB.
    const events = Array.from({ length: 1000 }, (_, i) => ({
      user_id: user,
      event: 'feature_used',
      properties: { note: 'n'.repeat(500), detail: 'd'.repeat(390), i },
      message_id: `heavy-${i}`,
    }));
    const body = JSON.stringify({ events });
    assert.ok(body.length < 1024 * 1024 && body.length > 950_000, `body of ${body.length} bytes`);
    const reply = await call(pipeline.api, 'POST', '/events/batch', { key: keys[0]!, json: { events } });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    await waitForSink('raw-sink', topicName('events'));
    assert.equal(
      await count('select 1 from raw_events where project_id = $1 and user_id = $2', [projectId, user]),
      1000,
    );
  });
});
