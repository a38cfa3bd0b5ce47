import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { RunningApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { Kafka, createProducer, logLevel } from '../../lib/kafka/client.js';
import { type TopicKey, avroSchema, topicName, userKey } from '../../lib/kafka/topics.js';
import { messageRef, openValue, sealValue } from '../../domain/sealed-user.js';
import { startProcessors } from '../../processors/main.js';
import { ensureUserKeys, userRefOf } from '../../store/user-keys.js';
import {
  call,
  closeServices,
  count,
  isolateTopics,
  newProject,
  services,
  startTestApi,
  waitFor,
  waitForAnalytics,
  waitForSink,
} from './helpers.js';

/**
 * A topic's schema as it was before message ids were sealed (docs/adr/0080-message-ids-sealed.md):
 * `message_id` required, no `message_ref`, in the event and in a chain's events.
 */
function beforeSealedIds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(beforeSealedIds);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, beforeSealedIds(v)]));
  if (Array.isArray(out.fields)) {
    out.fields = (out.fields as { name: string }[])
      .filter((f) => f.name !== 'message_ref')
      .map((f) => (f.name === 'message_id' ? { name: 'message_id', type: 'string' } : f));
  }
  return out;
}

describe('pi.events.v1 on the wire', () => {
  let api: RunningApi;
  before(async () => {
    await isolateTopics();
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
    await closeServices();
  });

  it('decodes with a plain kafkajs consumer and the registry to the posted event', async () => {
    const {
      projectId,
      keys: [key],
    } = await newProject(['events:write']);
    const event = {
      user_id: `wire-${crypto.randomUUID()}`,
      event: 'click',
      properties: { element: '#save', ui_response: false },
      timestamp: '2026-11-01T08:00:00.000Z',
      message_id: crypto.randomUUID(),
    };
    assert.equal((await call(api, 'POST', '/events', { key, json: event })).status, 202);

    // Deliberately not the project's own modules: a stock client, as a data engineer would use.
    const config = loadConfig();
    const registry = new SchemaRegistry({ host: config.schemaRegistryUrl });
    const consumer = new Kafka({ brokers: config.kafkaBrokers, logLevel: logLevel.NOTHING }).consumer({
      groupId: `wire-test-${crypto.randomUUID()}`,
    });
    const ref = await userRefOf(services().db, projectId, event.user_id);
    const seen: { key: string; value: Record<string, unknown>; magic: number }[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: topicName('events'), fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const value = (await registry.decode(message.value!)) as Record<string, unknown>;
          if (message.key!.toString() === `${projectId}:${ref}`) {
            seen.push({ key: message.key!.toString(), value, magic: message.value![0]! });
          }
        },
      });
      await waitFor('the event on the topic', () => seen.length > 0);
    } finally {
      await consumer.disconnect();
    }
    assert.equal(seen.length, 1);
    const [{ key: messageKey, value, magic }] = seen as [(typeof seen)[0]];
    assert.equal(magic, 0, 'Confluent wire format starts with magic byte 0');
    // Keyed by the user's pseudonym; the user id, properties and message id sealed with the user's key.
    assert.equal(messageKey, `${projectId}:${ref}`);
    const { rows } = await services().db.query<{ key: Buffer }>(
      'select key from user_keys where project_id = $1 and user_ref = $2',
      [projectId, ref],
    );
    assert.deepEqual(
      { ...value, received_at: undefined, sealed: undefined },
      {
        project_id: projectId,
        message_id: '',
        message_ref: messageRef(rows[0]!.key, event.message_id),
        user_ref: ref,
        event: event.event,
        timestamp: Date.parse(event.timestamp),
        received_at: undefined,
        sealed: undefined,
      },
    );
    assert.deepEqual(openValue(rows[0]!.key, `${projectId}:${ref}`, value.sealed as Buffer), {
      user_id: event.user_id,
      properties: JSON.stringify(event.properties),
      message_id: event.message_id,
    });
  });

  it('registers the current schemas as BACKWARD versions of those with clear message ids, which stay readable', async () => {
    const { registry } = services();
    const register = (subject: string, schema: unknown) =>
      registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(schema) },
        { subject, compatibility: COMPATIBILITY.BACKWARD },
      );
    const before = new Map<TopicKey, number>();
    for (const topic of ['events', 'sessions'] as const) {
      const subject = `wire-test-${crypto.randomUUID()}-${topic}-value`;
      const current = JSON.parse(avroSchema(topic)) as { fields: unknown[] };
      before.set(topic, (await register(subject, beforeSealedIds(current))).id);
      await register(subject, current);
      // The registry does check: a field added without a default is refused.
      const breaking = { ...current, fields: [...current.fields, { name: 'wire_test', type: 'string' }] };
      await assert.rejects(register(subject, breaking));
    }

    // An event as written before message ids were sealed (its id in the clear), then the same id
    // sent again through the API (sealed), twice: one event is stored, the first.
    const {
      projectId,
      keys: [apiKey],
    } = await newProject(['events:write']);
    const userId = `older-${crypto.randomUUID()}`;
    const messageId = `${userId}-signup`;
    const ref = await userRefOf(services().db, projectId, userId);
    const key = (await ensureUserKeys(services().db, projectId, [ref])).get(ref)!;
    const at = Date.now() - 60_000;
    const older = {
      project_id: projectId,
      message_id: messageId,
      user_ref: ref,
      sealed: sealValue(key, `${projectId}:${ref}`, { user_id: userId, properties: '{"form":"older"}' }),
      event: 'signup',
      timestamp: at,
      received_at: at,
    };
    const producer = createProducer(services().kafka);
    await producer.connect();
    try {
      await producer.send({
        topic: topicName('events'),
        messages: [{ key: userKey(projectId, ref), value: await registry.encode(before.get('events')!, older) }],
      });
    } finally {
      await producer.disconnect();
    }
    for (const properties of [{ form: 'sealed' }, { form: 'sealed again' }]) {
      const sent = await call(api, 'POST', '/events', {
        key: apiKey,
        json: { user_id: userId, event: 'signup', message_id: messageId, properties },
      });
      assert.equal(sent.status, 202);
    }
    assert.equal(
      (await call(api, 'POST', '/events', { key: apiKey, json: { user_id: userId, event: 'click' } })).status,
      202,
    );

    const running = await startProcessors(services());
    try {
      await waitForSink('raw-sink', topicName('events'), 60_000);
      await waitForAnalytics(60_000);
    } finally {
      await Promise.all(running.map((r) => r.stop()));
    }
    const { rows } = await services().db.query<{ message_id: string; properties: unknown }>(
      'select message_id, properties from raw_events where project_id = $1 and user_id = $2 order by kafka_offset',
      [projectId, userId],
    );
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[0], { message_id: messageId, properties: { form: 'older' } });
    for (const table of ['session_events', 'raw_events']) {
      assert.equal(
        await count(`select 1 from ${table} where project_id = $1 and message_id = $2`, [projectId, messageId]),
        1,
        table,
      );
    }
    assert.equal(await count('select 1 from session_events where project_id = $1', [projectId]), 2);
  });
});
