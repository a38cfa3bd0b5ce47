import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Kafka, logLevel } from '../../lib/kafka/client.js';
import type { RunningApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { topicName, userKey } from '../../lib/kafka/topics.js';
import { USER_TABLES } from '../../store/user-data.js';
import { userRefOf } from '../../store/user-keys.js';
import { openValue } from '../../domain/sealed-user.js';
import { startProcessors } from '../../processors/main.js';
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
  withAdmin,
  waitForSink,
} from './helpers.js';

/** Every value the users topic holds for a key, in order (null = tombstone). */
async function usersTopicValues(key: string): Promise<(Record<string, unknown> | null)[]> {
  const config = loadConfig();
  const ends = await withAdmin((admin) => admin.fetchTopicOffsets(topicName('users')));
  const wanted = ends.reduce((n, e) => n + Number(e.high), 0);
  const consumer = new Kafka({ brokers: config.kafkaBrokers, logLevel: logLevel.NOTHING }).consumer({
    groupId: `users-topic-${crypto.randomUUID()}`,
  });
  const values: (Record<string, unknown> | null)[] = [];
  let seen = 0;
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: topicName('users'), fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen++;
        if (message.key?.toString() !== key) return;
        values.push(
          message.value ? ((await services().registry.decode(message.value)) as Record<string, unknown>) : null,
        );
      },
    });
    await waitFor('the whole users topic', () => seen >= wanted);
  } finally {
    await consumer.disconnect();
  }
  return values;
}

describe('users API', () => {
  let api: RunningApi;
  let pipeline: TestPipeline;
  let projectId: string;
  let admin: string;
  let writer: string;

  before(async () => {
    pipeline = await startPipeline(['raw-sink']);
    api = pipeline.api;
    const project = await newProject(['admin'], ['events:write']);
    projectId = project.projectId;
    [admin, writer] = project.keys as [string, string];
  });
  after(() => stopPipeline(pipeline));

  it('identifies (201), merges (200), removes null properties and publishes the state to the users topic', async () => {
    const userId = `u-${crypto.randomUUID()}`;
    const first = await call<Record<string, unknown>>(api, 'POST', '/users/identify', {
      key: admin,
      json: { user_id: userId, properties: { email: 'a@example.com', plan: 'free', mrr: 0 } },
    });
    assert.equal(first.status, 201);
    assert.deepEqual(first.body.properties, { email: 'a@example.com', plan: 'free', mrr: 0 });

    // The write key (the one a browser holds) writes, and reads nothing back: not the stored e-mail.
    const second = await call<Record<string, unknown>>(api, 'POST', '/users/identify', {
      key: writer,
      json: { user_id: userId, properties: { plan: 'pro', mrr: 99 } },
    });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, { user_id: userId });

    const third = await call<Record<string, unknown>>(api, 'POST', '/users/identify', {
      key: admin,
      json: { user_id: userId, properties: { email: null } },
    });
    assert.equal(third.status, 200);
    assert.deepEqual(third.body.properties, { plan: 'pro', mrr: 99 });

    const patched = await call<Record<string, unknown>>(api, 'PATCH', `/users/${userId}`, {
      key: admin,
      json: { properties: { company: 'Acme' } },
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.properties, { plan: 'pro', mrr: 99, company: 'Acme' });
    const got = await call<Record<string, unknown>>(api, 'GET', `/users/${userId}`, { key: admin });
    assert.deepEqual(got.body.properties, patched.body.properties);

    // Keyed by the user's pseudonym, the properties sealed with the user's key.
    const ref = await userRefOf(services().db, projectId, userId);
    const values = await usersTopicValues(userKey(projectId, ref));
    const { rows: keys } = await services().db.query<{ key: Buffer }>(
      'select key from user_keys where project_id = $1 and user_ref = $2',
      [projectId, ref],
    );
    const open = (v: Record<string, unknown> | null) =>
      openValue(keys[0]!.key, `${projectId}:${ref}`, v!.sealed as Buffer) as { user_id: string; properties: string };
    assert.ok(values.every((v) => open(v).user_id === userId));
    assert.deepEqual(
      values.map((v) => JSON.parse(open(v).properties) as unknown),
      [
        { email: 'a@example.com', plan: 'free', mrr: 0 },
        { email: 'a@example.com', plan: 'pro', mrr: 99 },
        { plan: 'pro', mrr: 99 },
        { plan: 'pro', mrr: 99, company: 'Acme' },
      ],
    );
  });

  it('answers 404 to PATCH of an unknown user and 400 to bad bodies', async () => {
    const unknown = await call(api, 'PATCH', '/users/nobody-here', { key: admin, json: { properties: { a: 1 } } });
    assert.equal(unknown.status, 404);
    assert.equal(errorOf(unknown).code, 'not_found');
    const noId = await call(api, 'POST', '/users/identify', { key: writer, json: { properties: {} } });
    assert.deepEqual(errorOf(noId).details, { field: 'user_id', reason: 'required' });
    const badProps = await call(api, 'PATCH', '/users/x', { key: admin, json: { properties: 'plan=pro' } });
    assert.deepEqual(errorOf(badProps).details, { field: 'properties', reason: 'invalid_type' });
  });

  it('erases every row of a user; no replay of Kafka brings them back', async () => {
    const gone = `gone-${crypto.randomUUID()}`;
    const kept = `kept-${crypto.randomUUID()}`;
    await call(api, 'POST', '/users/identify', { key: writer, json: { user_id: gone, properties: { plan: 'pro' } } });
    const events = [gone, kept].flatMap((u) =>
      Array.from({ length: 5 }, (_, i) => ({ user_id: u, event: 'click', properties: { i }, message_id: `${u}-${i}` })),
    );
    assert.equal((await call(api, 'POST', '/events/batch', { key: writer, json: { events } })).status, 202);
    await waitForSink('raw-sink', topicName('events'));
    await services().db.query(
      'insert into user_metrics (project_id, user_id, events, days_active) values ($1, $2, 5, 1)',
      [projectId, gone],
    );
    const rowsOf = async (u: string) => {
      const counts: Record<string, number> = {};
      for (const t of USER_TABLES) {
        counts[t] = await count(`select 1 from ${t} where project_id = $1 and user_id = $2`, [projectId, u]);
      }
      return counts;
    };
    const only = (counts: Record<string, number>) => ({
      ...Object.fromEntries(USER_TABLES.map((t) => [t, 0])),
      ...counts,
    });
    // The rows written above wait in the workers' logs of changed users (migration 21).
    assert.deepEqual(
      await rowsOf(gone),
      only({ raw_events: 5, user_metrics: 1, users: 1, cohort_user_changes: 1, job_user_changes: 1 }),
    );

    const del = await call(api, 'DELETE', `/users/${gone}`, { key: admin });
    assert.equal(del.status, 200);
    // raw_events 5, user_metrics 1, users 1: the workers' change logs are emptied but not counted.
    assert.deepEqual(del.body, { user_id: gone, deleted: true, rows_deleted: 7 });
    assert.deepEqual(await rowsOf(gone), only({}));
    assert.equal((await call(api, 'GET', `/users/${gone}`, { key: admin })).status, 404);
    const topic = await usersTopicValues(userKey(projectId, await userRefOf(services().db, projectId, gone)));
    assert.equal(topic.at(-1), null, 'a tombstone ends the user in the users topic');

    // Replay the raw topic from offset 0: the erased user's events stay out, the others come back.
    await Promise.all(pipeline.sinks.map((s) => s.stop()));
    await services().db.query(`delete from processor_offsets where processor = 'raw-sink'`);
    await services().db.query('delete from raw_events where project_id = $1 and user_id = $2', [projectId, kept]);
    pipeline.sinks = await startProcessors(services(), ['raw-sink']);
    await waitForSink('raw-sink', topicName('events'), 60_000);
    assert.equal(await count('select 1 from raw_events where project_id = $1 and user_id = $2', [projectId, kept]), 5);
    assert.deepEqual(await rowsOf(gone), only({}));

    // Events received after the erasure are new data and are kept.
    await call(api, 'POST', '/events', { key: writer, json: { user_id: gone, event: 'came_back' } });
    await waitForSink('raw-sink', topicName('events'));
    assert.deepEqual(await rowsOf(gone), only({ raw_events: 1 }));
  });

  it('USER_TABLES names every table that has a user_id column', async () => {
    const { rows } = await services().db.query<{ table_name: string }>(
      `select table_name from information_schema.columns
       where table_schema = 'public' and column_name = 'user_id' order by table_name`,
    );
    assert.deepEqual(
      rows.map((r) => r.table_name),
      [...USER_TABLES].sort(),
    );
  });
});
