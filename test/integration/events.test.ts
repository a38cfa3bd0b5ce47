import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { RunningApi } from '../../api/server.js';

import { topicName } from '../../lib/kafka/topics.js';
import {
  call,
  count,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForSink,
} from './helpers.js';

describe('ingest → Kafka → raw-sink → raw_events', () => {
  let api: RunningApi;
  let pipeline: TestPipeline;
  let projectId: string;
  let writeKey: string;
  let readKey: string;

  before(async () => {
    pipeline = await startPipeline(['raw-sink']);
    api = pipeline.api;
    const project = await newProject(['events:write'], ['analytics:read']);
    projectId = project.projectId;
    [writeKey, readKey] = project.keys as [string, string];
  });

  after(() => stopPipeline(pipeline));

  const rowsOf = (userId: string) =>
    services().db.query('select * from raw_events where project_id = $1 and user_id = $2 order by occurred_at', [
      projectId,
      userId,
    ]);

  it('stores one posted event as exactly one raw row with the same fields', async () => {
    const event = {
      user_id: `u-${crypto.randomUUID()}`,
      event: 'feature_used',
      properties: { feature: 'export', ui_context: { empty_state: false, data_volume: 42 }, label: 'naïve ✓' },
      timestamp: '2026-11-20T10:15:30.250Z',
      message_id: crypto.randomUUID(),
    };
    const reply = await call(api, 'POST', '/events', { key: writeKey, json: event });
    assert.equal(reply.status, 202);
    assert.deepEqual(reply.body, { accepted: 1, message_ids: [event.message_id] });

    const { rows } = await waitFor('the raw row', async () => {
      const result = await rowsOf(event.user_id);
      return result.rowCount === 1 && result;
    });
    const row = rows[0] as Record<string, unknown>;
    assert.equal(row.message_id, event.message_id);
    assert.equal(row.event, event.event);
    assert.deepEqual(row.properties, event.properties);
    assert.equal((row.occurred_at as Date).toISOString(), event.timestamp);
    // Nothing else arrives for that user: once the raw-sink has applied everything in the topic
    // (the post came before), a second row would be there.
    await waitForSink('raw-sink', topicName('events'));
    assert.equal((await rowsOf(event.user_id)).rowCount, 1);
  });

  it('uses the receive time when the timestamp is absent and assigns a message id', async () => {
    const userId = `u-${crypto.randomUUID()}`;
    const before = Date.now();
    const reply = await call<{ message_ids: string[] }>(api, 'POST', '/events', {
      key: writeKey,
      json: { user_id: userId, event: 'page_view' },
    });
    assert.equal(reply.status, 202);
    assert.match(reply.body.message_ids[0]!, /^[0-9a-f-]{36}$/);
    const { rows } = await waitFor('the raw row', async () => {
      const r = await rowsOf(userId);
      return r.rowCount === 1 && r;
    });
    const at = (rows[0] as { occurred_at: Date }).occurred_at.getTime();
    assert.ok(at >= before - 5 && at <= Date.now(), `occurred_at ${at} not within the request`);
  });

  it('stores a batch of 1,000 once, even when the same batch is posted twice', async () => {
    const userIds = Array.from({ length: 50 }, (_, i) => `batch-user-${i}-${crypto.randomUUID()}`);
    const events = Array.from({ length: 1000 }, (_, i) => ({
      user_id: userIds[i % userIds.length]!,
      event: i % 3 === 0 ? 'page_view' : 'click',
      properties: { page: `/p/${i % 7}`, seq: i },
      message_id: `m-${i}-${crypto.randomUUID()}`,
    }));
    const first = await call(api, 'POST', '/events/batch', { key: writeKey, json: { events } });
    assert.equal(first.status, 202);
    assert.equal((first.body as { accepted: number }).accepted, 1000);
    const second = await call(api, 'POST', '/events/batch', { key: writeKey, json: { events } });
    assert.equal(second.status, 202);

    const ids = events.map((e) => e.message_id);
    const stored = () =>
      count('select 1 from raw_events where project_id = $1 and message_id = any($2)', [projectId, ids]);
    await waitForSink('raw-sink', topicName('events'));
    assert.equal(await stored(), 1000);
  });

  it('refuses a batch with one invalid item as a whole, naming the item', async () => {
    const userId = `u-${crypto.randomUUID()}`;
    const events = Array.from({ length: 10 }, (_, i) => ({ user_id: userId, event: `e${i}` })) as Record<
      string,
      unknown
    >[];
    delete events[7]!.user_id;
    const reply = await call(api, 'POST', '/events/batch', { key: writeKey, json: { events } });
    assert.equal(reply.status, 400);
    assert.deepEqual(errorOf(reply), {
      code: 'invalid_request',
      message: 'events[7].user_id is required.',
      details: { field: 'events[7].user_id', reason: 'required' },
    });

    const wrongType = await call(api, 'POST', '/events/batch', {
      key: writeKey,
      json: {
        events: [
          { user_id: userId, event: 'ok' },
          { user_id: userId, event: 5 },
        ],
      },
    });
    assert.equal(wrongType.status, 400);
    assert.deepEqual(errorOf(wrongType).details, { field: 'events[1].event', reason: 'invalid_type' });

    // A later valid event of the same user lands alone: nothing of the refused batches was ingested.
    await call(api, 'POST', '/events', { key: writeKey, json: { user_id: userId, event: 'after' } });
    await waitForSink('raw-sink', topicName('events'));
    const { rows } = await rowsOf(userId);
    assert.deepEqual(
      rows.map((r) => (r as { event: string }).event),
      ['after'],
    );
  });

  it('answers 401 without a valid key and 403 without the events:write scope, in the error body', async () => {
    const event = { user_id: 'x', event: 'y' };
    const none = await call(api, 'POST', '/events', { json: event });
    assert.equal(none.status, 401);
    assert.equal(errorOf(none).code, 'unauthorized');
    assert.equal(none.headers.get('www-authenticate'), 'Bearer');

    const forged = await call(api, 'POST', '/events', { json: event, key: `${writeKey.slice(0, -4)}AAAA` });
    assert.equal(forged.status, 401);
    assert.equal(errorOf(forged).code, 'unauthorized');

    const forbidden = await call(api, 'POST', '/events/batch', { json: { events: [event] }, key: readKey });
    assert.equal(forbidden.status, 403);
    assert.deepEqual(errorOf(forbidden), {
      code: 'forbidden',
      message: 'This API key lacks the scope events:write.',
      details: { required_scope: 'events:write' },
    });
  });

  it('answers malformed JSON, wrong content type, oversized bodies and unknown routes with the error body', async () => {
    const malformed = await call(api, 'POST', '/events', {
      key: writeKey,
      body: '{"user_id": ',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(errorOf(malformed).details.reason, 'malformed_json');

    const notJson = await call(api, 'POST', '/events', {
      key: writeKey,
      body: 'user_id=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(notJson.status, 415);
    assert.equal(errorOf(notJson).code, 'unsupported_media_type');

    const big = { user_id: 'x', event: 'y', properties: { blob: 'a'.repeat(1024 * 1024) } };
    const tooLarge = await call(api, 'POST', '/events', { key: writeKey, json: big });
    assert.equal(tooLarge.status, 413);
    assert.equal(errorOf(tooLarge).code, 'payload_too_large');

    const tooMany = await call(api, 'POST', '/events/batch', {
      key: writeKey,
      json: { events: Array.from({ length: 1001 }, () => ({ user_id: 'x', event: 'y' })) },
    });
    assert.equal(tooMany.status, 400);
    assert.deepEqual(errorOf(tooMany).details, { field: 'events', reason: 'max_items' });

    const unknownField = await call(api, 'POST', '/events', {
      key: writeKey,
      json: { user_id: 'x', event: 'y', foo: 1 },
    });
    assert.deepEqual(errorOf(unknownField).details, { field: 'foo', reason: 'unknown_field' });

    const future = await call(api, 'POST', '/events', {
      key: writeKey,
      json: { user_id: 'x', event: 'y', timestamp: '2999-01-01T00:00:00Z' },
    });
    assert.deepEqual(errorOf(future).details, { field: 'timestamp', reason: 'out_of_range' });

    const badTime = await call(api, 'POST', '/events', {
      key: writeKey,
      json: { user_id: 'x', event: 'y', timestamp: 'yesterday' },
    });
    assert.deepEqual(errorOf(badTime).details, { field: 'timestamp', reason: 'invalid_format' });

    const array = await call(api, 'POST', '/events', { key: writeKey, json: [1, 2] });
    assert.deepEqual(errorOf(array).details, { field: '(body)', reason: 'invalid_type' });

    const unknownRoute = await call(api, 'GET', '/no-such-thing', { key: writeKey });
    assert.equal(unknownRoute.status, 404);
    assert.equal(errorOf(unknownRoute).code, 'not_found');

    const wrongMethod = await call(api, 'GET', '/events', { key: writeKey });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST');

    const unknownMethod = await call(api, 'PURGE', '/events', { key: writeKey });
    assert.equal(unknownMethod.status, 501);
    assert.equal(errorOf(unknownMethod).code, 'not_implemented');
    assert.equal(errorOf(wrongMethod).code, 'method_not_allowed');
  });

  it('says ok on GET /v1/health without a key, and nothing more to anyone', async () => {
    const reply = await call<Record<string, unknown>>(api, 'GET', '/health');
    assert.deepEqual([reply.status, reply.body], [200, { status: 'ok' }], 'no addresses, errors or timings for anyone');
    // The details are the operator's (test/integration/health-operator.test.ts): no project key reads them.
    assert.equal((await call(api, 'GET', '/health/details', { key: writeKey })).status, 404);
  });
});
