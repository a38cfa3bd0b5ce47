import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { Kafka, logLevel } from 'kafkajs';
import type { RunningApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { topicName } from '../../lib/kafka/topics.js';
import { openValue } from '../../domain/sealed-user.js';
import { userRefOf } from '../../store/user-keys.js';
import { call, closeServices, isolateTopics, newProject, services, startTestApi, waitFor } from './helpers.js';

describe('pi.events.v1 on the wire', () => {
  let api: RunningApi;
  after(async () => {
    await api?.close();
    await closeServices();
  });

  it('decodes with a plain kafkajs consumer and the registry to the posted event', async () => {
    await isolateTopics();
    api = await startTestApi();
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
    const seen: { key: string; value: Record<string, unknown>; magic: number }[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: topicName('events'), fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const value = (await registry.decode(message.value!)) as Record<string, unknown>;
          if (value.message_id === event.message_id) {
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
    // Keyed by the user's pseudonym; the user id and properties sealed with the user's key.
    const ref = await userRefOf(services().db, projectId, event.user_id);
    assert.equal(messageKey, `${projectId}:${ref}`);
    assert.deepEqual(
      { ...value, received_at: undefined, sealed: undefined },
      {
        project_id: projectId,
        message_id: event.message_id,
        user_ref: ref,
        event: event.event,
        timestamp: Date.parse(event.timestamp),
        received_at: undefined,
        sealed: undefined,
      },
    );
    const { rows } = await services().db.query<{ key: Buffer }>(
      'select key from user_keys where project_id = $1 and user_ref = $2',
      [projectId, ref],
    );
    assert.deepEqual(openValue(rows[0]!.key, `${projectId}:${ref}`, value.sealed as Buffer), {
      user_id: event.user_id,
      properties: JSON.stringify(event.properties),
    });
  });
});
