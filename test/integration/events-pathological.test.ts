import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { MAX_BODY_BYTES } from '../../api/body.js';
import type { RunningApi } from '../../api/server.js';
import { topicName } from '../../lib/kafka/topics.js';
import {
  type Reply,
  call,
  count,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForSink,
} from './helpers.js';

/**
 * Issue 45: the API scans every property value on its event loop (body check, schema, PII filter),
 * and the PII filter's backtracking e-mail regex took time in the square of a value's length, so one
 * 1 MiB value, sent with a public browser key, held the loop for minutes. Each body here is as large
 * as the API takes and made of that regex's worst case: a local part with no domain after its '@'.
 * The API runs in this process, so its CPU is this process's and a held loop delays /health.
 */
describe('ingest of 1 MiB pathological bodies (answered at once, /health answering meanwhile)', function () {
  this.timeout(120_000);
  let pipeline: TestPipeline;
  let api: RunningApi;
  let key: string;
  let projectId: string;

  before(async () => {
    pipeline = await startPipeline(['raw-sink']);
    api = pipeline.api;
    const project = await newProject(['events:write']);
    projectId = project.projectId;
    key = project.keys[0]!;
    // The project's key read, the schema compiled and the producer connected before anything is measured.
    const warm = await call(api, 'POST', '/events/batch', { key, json: { events: [{ user_id: 'w', event: 'warm' }] } });
    assert.equal(warm.status, 202);
  });

  after(() => stopPipeline(pipeline));

  const post = (body: string) =>
    call(api, 'POST', '/events/batch', { key, body, headers: { 'Content-Type': 'application/json' } });

  /** The answer to `body` and the milliseconds of CPU this process spent until it came. */
  const measured = async (body: string): Promise<{ reply: Reply; cpuMs: number }> => {
    const start = process.cpuUsage();
    const reply = await post(body);
    const { user, system } = process.cpuUsage(start);
    return { reply, cpuMs: (user + system) / 1000 };
  };

  /** The slowest of the GET /health answers asked one after the other while `body` is posted. */
  const slowestHealthWhilePosting = async (body: string): Promise<number> => {
    let answered = false;
    const posted = post(body).finally(() => (answered = true));
    let slowestMs = 0;
    do {
      const start = performance.now();
      const health = await call(api, 'GET', '/health');
      assert.equal(health.status, 200);
      slowestMs = Math.max(slowestMs, performance.now() - start);
    } while (!answered);
    await posted;
    return slowestMs;
  };

  /** `{"events":[…]}` of events made by `event(i)`, as many as fit in the body limit. */
  const fullBody = (event: (i: number) => Record<string, unknown>) => {
    const items: string[] = [];
    let bytes = '{"events":[]}'.length;
    for (let i = 0; ; i++) {
      const item = JSON.stringify(event(i));
      if (bytes + item.length + 1 > MAX_BODY_BYTES) break;
      items.push(item);
      bytes += item.length + 1;
    }
    const body = `{"events":[${items.join(',')}]}`;
    assert.ok(Buffer.byteLength(body) <= MAX_BODY_BYTES && Buffer.byteLength(body) > MAX_BODY_BYTES - 9000);
    return { body, events: items.length };
  };

  it('refuses one value filling the body by its length: 400 naming it, within 50 ms of CPU', async () => {
    const skeleton = '{"events":[{"user_id":"u","event":"e","properties":{"v":"@"}}]}';
    const body = skeleton.replace('"@"', `"${'a'.repeat(MAX_BODY_BYTES - skeleton.length)}@"`);
    assert.equal(Buffer.byteLength(body), MAX_BODY_BYTES);

    // First with /health asked meanwhile (which also warms the path of a large body), then measured.
    const slowestMs = await slowestHealthWhilePosting(body);
    assert.ok(slowestMs < 250, `GET /health answered in ${slowestMs.toFixed(0)} ms at worst`);
    const { reply, cpuMs } = await measured(body);
    assert.equal(reply.status, 400);
    assert.deepEqual(errorOf(reply).details, { field: 'events[0].properties.v', reason: 'max_length' });
    assert.ok(cpuMs < 50, `${cpuMs.toFixed(1)} ms of CPU`);
  });

  it('accepts 1 MiB of such values under the 8,192-character cap, drops the e-mail beside them, stores each once', async () => {
    const run = crypto.randomUUID();
    const { body, events } = fullBody((i) => ({
      user_id: `u-${i % 10}`,
      event: 'note_taken',
      message_id: `${run}-${i}`,
      properties: { note: `${'a'.repeat(8191)}@`, contact: 'jane@example.com' },
    }));
    assert.ok(events > 100, `${events} events`);

    const slowestMs = await slowestHealthWhilePosting(body);
    assert.ok(slowestMs < 250, `GET /health answered in ${slowestMs.toFixed(0)} ms at worst`);
    await waitForSink('raw-sink', topicName('events')); // its work is this process's CPU too
    // The same body again, measured (the same message ids: nothing is stored twice). The old regex
    // took ~40 ms of CPU per value here, over 5 s for the body. The 50 ms for a 202 also
    // needs the rest of issue 45 (each event serialised once); this bound is the scans'.
    const { reply, cpuMs } = await measured(body);
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    assert.equal((reply.body as { accepted: number }).accepted, events);
    assert.ok(cpuMs < 500, `${cpuMs.toFixed(1)} ms of CPU`);

    await waitForSink('raw-sink', topicName('events'));
    const ids = Array.from({ length: events }, (_, i) => `${run}-${i}`);
    assert.equal(
      await count('select 1 from raw_events where project_id = $1 and message_id = any($2)', [projectId, ids]),
      events,
    );
    const { rows } = await services().db.query<{ properties: unknown }>(
      'select properties from raw_events where project_id = $1 and message_id = $2',
      [projectId, ids[0]],
    );
    assert.deepEqual(rows[0]!.properties, { note: `${'a'.repeat(8191)}@` });
  });
});
