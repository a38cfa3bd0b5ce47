import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import type { RunningApi } from '../../api/server.js';
import { topicName } from '../../lib/kafka/topics.js';
import {
  call,
  closeServices,
  count,
  isolateTopics,
  newProject,
  startProcessorsProcess,
  startTestApi,
  stopProcess,
  waitFor,
  waitForSink,
} from './helpers.js';

/** The raw-sink in its own process, as in production. */
const startSinkProcess = () => startProcessorsProcess('raw-sink');

describe('raw-sink killed with SIGKILL mid-load', () => {
  let api: RunningApi;
  let sink: ChildProcess | undefined;

  after(async () => {
    await stopProcess(sink);
    await api?.close();
    await closeServices();
  });

  it('ends with exactly 20,000 rows: no loss, no duplicates', async () => {
    await isolateTopics();
    api = await startTestApi();
    const {
      projectId,
      keys: [key],
    } = await newProject(['events:write']);
    const rows = () => count('select 1 from raw_events where project_id = $1', [projectId]);
    const batch = (b: number) =>
      Array.from({ length: 1000 }, (_, i) => ({
        user_id: `crash-user-${(b * 1000 + i) % 300}`,
        event: 'click',
        properties: { n: b * 1000 + i },
        message_id: `crash-${b}-${i}-${crypto.randomUUID()}`,
      }));
    const post = async (b: number) => {
      const reply = await call(api, 'POST', '/events/batch', { key, json: { events: batch(b) } });
      assert.equal(reply.status, 202);
    };

    sink = startSinkProcess();
    for (let b = 0; b < 6; b++) await post(b);
    // Kill while the sink is writing: some rows in, not all of them.
    await waitFor('the sink to start writing', async () => (await rows()) > 0, 60_000);
    sink.kill('SIGKILL');
    await once(sink, 'exit');
    const atKill = await rows();
    for (let b = 6; b < 20; b++) await post(b);
    assert.ok(atKill < 20_000, `the kill must land mid-load (rows at kill: ${atKill})`);

    sink = startSinkProcess();
    await waitForSink('raw-sink', topicName('events'), 90_000);
    assert.equal(await rows(), 20_000);
    assert.equal(
      await count(`select distinct properties->>'n' from raw_events where project_id = $1`, [projectId]),
      20_000,
      'every posted event is there once',
    );
    // This file's topics only: other files dead-letter on purpose (raw-sink-poison).
    assert.equal(await count(`select 1 from dead_letters where topic = $1`, [topicName('events')]), 0);
  });
});
