import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createProducer } from '../../lib/kafka/client.js';
import { registerValueSchema } from '../../lib/kafka/registry.js';
import { topicName } from '../../lib/kafka/topics.js';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { ServiceError } from '../../lib/errors.js';
import type { EventOnWire } from '../../domain/sealed-user.js';
import { startProcessors } from '../../processors/main.js';
import { rawSink } from '../../processors/raw-sink/runner.js';
import { BatchEvents, type BatchDeadLettered } from '../../processors/runtime/batch-events.js';
import { type PostgresSink, type RunningSink, runPostgresSink } from '../../processors/runtime/postgres-sink.js';
import {
  closeServices,
  count,
  isolateTopics,
  newProject,
  sealedEventMessage,
  services,
  waitForAnalytics,
  waitForSink,
} from './helpers.js';

describe('raw-sink, sessionize and data Postgres refuses', () => {
  let sinks: RunningSink[] = [];
  afterEach(async () => {
    await Promise.all(sinks.map((s) => s.stop()));
    sinks = [];
  });
  after(closeServices);

  it('dead-letters the refused messages and stores the rest of the batch', async () => {
    await isolateTopics();
    const { projectId } = await newProject();
    const { kafka, registry } = services();
    const schemaId = await registerValueSchema(registry, 'events');
    const record = (overrides: Partial<TrackedEventRecord>): TrackedEventRecord => ({
      project_id: projectId,
      message_id: crypto.randomUUID(),
      user_id: 'poison-user',
      event: 'click',
      timestamp: Date.now(),
      received_at: Date.now(),
      properties: '{}',
      ...overrides,
    });
    // Written straight to the topic, as an older or foreign producer could.
    const values = [
      record({ event: 'good-before' }),
      record({ properties: '{"label":"\\u0000"}' }), // jsonb cannot hold U+0000
      record({ project_id: 'not-a-uuid' }),
      // Too big for a btree index entry (SQLSTATE 54000): random CJK text does not compress.
      record({
        message_id: Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join(
          '',
        ),
      }),
      record({ event: 'good-after' }),
    ];
    const producer = createProducer(kafka);
    await producer.connect();
    // Sealed as the API seals, all under the poison user's key (the one of the bad project included).
    const poisonKey = (await sealedEventMessage(values[0]!)).key;
    await producer.send({
      topic: topicName('events'),
      messages: await Promise.all(
        values.map(async (v) => ({
          key: poisonKey,
          value: await registry.encode(schemaId, (await sealedEventMessage(v)).value),
        })),
      ),
    });
    await producer.disconnect();

    sinks = await startProcessors(services(), ['raw-sink', 'analytics']);
    await waitForSink('raw-sink', topicName('events'));
    await waitForAnalytics();
    const { rows } = await services().db.query<{ event: string }>(
      'select event from raw_events where project_id = $1 order by kafka_offset',
      [projectId],
    );
    assert.deepEqual(
      rows.map((r) => r.event),
      ['good-before', 'good-after'],
    );
    const dead = await services().db.query<{ error: string; payload: Buffer }>(
      `select error, payload from dead_letters where processor = 'raw-sink' and message_key = $1 order by kafka_offset`,
      [poisonKey],
    );
    assert.equal(dead.rowCount, 3);
    assert.match(dead.rows[0]!.error, /^postgres: .*(unicode|\\u0000)/i);
    // Refused before Postgres: a project id that is no uuid has no user key to open it with.
    assert.match(dead.rows[1]!.error, /^project_id is not a uuid/);
    assert.match(dead.rows[2]!.error, /^postgres: index row/);
    const decoded = (await registry.decode(dead.rows[1]!.payload)) as TrackedEventRecord;
    assert.equal(decoded.project_id, 'not-a-uuid', 'the original message is kept');
    assert.equal(await count('select 1 from raw_events where project_id = $1', [projectId]), 2);

    // The sessionizer sets the same three aside, so the user's chain (and session) holds the good two.
    const { rows: kept } = await services().db.query<{ event: string }>(
      'select event from session_events where project_id = $1 order by kafka_offset',
      [projectId],
    );
    assert.deepEqual(
      kept.map((r) => r.event),
      ['good-before', 'good-after'],
    );
    assert.equal(await count('select 1 from sessions where project_id = $1 and events = 2', [projectId]), 1);
    const { rows: set } = await services().db.query<{ error: string }>(
      `select error from dead_letters where processor = 'sessionize' and message_key = $1 order by kafka_offset`,
      [poisonKey],
    );
    assert.deepEqual(
      set.map((r) => r.error),
      ['properties hold U+0000', 'project_id is not a uuid', 'message_id is longer than 2000 bytes'],
    );
    assert.equal(await count("select 1 from dead_letters where processor = 'analytics'"), 0);
  });
  it('sets an altered sealed value aside as a dead letter, as a value of the write, and stores its neighbours', async () => {
    await isolateTopics();
    const { projectId } = await newProject();
    const { kafka, registry } = services();
    const schemaId = await registerValueSchema(registry, 'events');
    const messages = await Promise.all(
      ['kept-before', 'altered', 'kept-after'].map((event) =>
        sealedEventMessage({
          project_id: projectId,
          message_id: crypto.randomUUID(),
          user_id: 'altered-user',
          event,
          timestamp: Date.now(),
          received_at: Date.now(),
          properties: '{}',
        }),
      ),
    );
    // One bit of the sealed user and properties flipped (in a copy: this process remembers what it
    // sealed): its authentication tag no longer matches.
    const altered = Buffer.from(messages[1]!.value.sealed);
    altered[altered.length - 1]! ^= 1;
    messages[1]!.value.sealed = altered;
    const producer = createProducer(kafka);
    await producer.connect();
    await producer.send({
      topic: topicName('events'),
      messages: await Promise.all(
        messages.map(async (m) => ({ key: m.key, value: await registry.encode(schemaId, m.value) })),
      ),
    });
    await producer.disconnect();

    const events = new BatchEvents();
    const letters: BatchDeadLettered['letters'] = [];
    events.on('batch.dead_lettered', (e) => letters.push(...e.letters));
    const flushed = events.when('batch.flushed', (e) => e.to >= 2, AbortSignal.timeout(30_000));
    sinks = [await runPostgresSink(rawSink, { ...services(), events })];
    const done = await flushed;
    assert.deepEqual([done.from, done.messages, done.deadLettered], [0, 3, 1]);
    assert.deepEqual(
      letters.map((l) => l.offset),
      [1],
    );
    assert.match(letters[0]!.error, /^sealed value does not open: /);
    const { rows } = await services().db.query<{ event: string }>(
      'select event from raw_events where project_id = $1 order by kafka_offset',
      [projectId],
    );
    assert.deepEqual(
      rows.map((r) => r.event),
      ['kept-before', 'kept-after'],
    );
    const { rows: dead } = await services().db.query<{ kafka_offset: string; error: string }>(
      `select kafka_offset, error from dead_letters where processor = 'raw-sink' and message_key = $1`,
      [messages[1]!.key],
    );
    assert.equal(dead.length, 1);
    assert.equal(Number(dead[0]!.kafka_offset), 1);
    assert.match(dead[0]!.error, /^sealed value does not open: /);
  });
  it('isolates a batch whose write throws an error of a dead letter and sets that message aside, whatever raised it', async () => {
    await isolateTopics();
    const { projectId } = await newProject();
    const { kafka, registry } = services();
    const schemaId = await registerValueSchema(registry, 'events');
    const messages = await Promise.all(
      ['first', 'refused', 'last'].map((event) =>
        sealedEventMessage({
          project_id: projectId,
          message_id: crypto.randomUUID(),
          user_id: 'thrown-user',
          event,
          timestamp: Date.now(),
          received_at: Date.now(),
          properties: '{}',
        }),
      ),
    );
    const producer = createProducer(kafka);
    await producer.connect();
    await producer.send({
      topic: topicName('events'),
      messages: await Promise.all(
        messages.map(async (m) => ({ key: m.key, value: await registry.encode(schemaId, m.value) })),
      ),
    });
    await producer.disconnect();

    // Not a SQLSTATE: an error of ours that says no retry could write offset 1.
    const refusing: PostgresSink<EventOnWire> = {
      ...rawSink,
      write(client, batch, context) {
        if (batch.some((m) => m.offset === 1)) {
          throw new ServiceError('test_refusal', 'offset 1 can never be written', { deadLetter: true });
        }
        return rawSink.write(client, batch, context);
      },
    };
    const events = new BatchEvents();
    const letters: BatchDeadLettered['letters'] = [];
    events.on('batch.dead_lettered', (e) => letters.push(...e.letters));
    const flushed = events.when('batch.flushed', (e) => e.to >= 2, AbortSignal.timeout(30_000));
    sinks = [await runPostgresSink(refusing, { ...services(), events })];
    assert.equal((await flushed).deadLettered, 1);
    assert.deepEqual(letters, [{ offset: 1, error: 'offset 1 can never be written' }]);
    const { rows } = await services().db.query<{ event: string }>(
      'select event from raw_events where project_id = $1 order by kafka_offset',
      [projectId],
    );
    assert.deepEqual(
      rows.map((r) => r.event),
      ['first', 'last'],
    );
    assert.equal(
      await count(`select 1 from dead_letters where processor = 'raw-sink' and message_key = $1 and kafka_offset = 1`, [
        messages[1]!.key,
      ]),
      1,
    );
  });
});
