import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { Kafka, logLevel } from '../../lib/kafka/client.js';
import type { RunningApi } from '../../api/server.js';
import { messageRef, openValue } from '../../domain/sealed-user.js';
import { loadConfig } from '../../lib/config.js';
import { type TopicKey, topicName } from '../../lib/kafka/topics.js';
import { PROCESSORS, startProcessors } from '../../processors/main.js';
import { USER_DATA_TABLES } from '../../store/tables.js';
import { userRefOf } from '../../store/user-keys.js';
import {
  call,
  closeServices,
  count,
  isolateTopics,
  newProject,
  runReplay,
  services,
  startTestApi,
  waitForAnalytics,
  waitForSink,
  withAdmin,
} from './helpers.js';

interface Decoded {
  topic: TopicKey;
  key: string;
  value: Record<string, unknown> | null;
  raw: Buffer | null;
}

/**
 * Every message of the topics from offset 0, read as a data engineer would: a stock kafkajs
 * consumer and the registry's own decoder, none of the service's modules.
 */
async function readTopics(topics: TopicKey[]): Promise<Decoded[]> {
  const config = loadConfig();
  const registry = new SchemaRegistry({ host: config.schemaRegistryUrl });
  const out: Decoded[] = [];
  for (const topic of topics) {
    const name = topicName(topic);
    const ends = await withAdmin((admin) => admin.fetchTopicOffsets(name));
    const consumer = new Kafka({ brokers: config.kafkaBrokers, logLevel: logLevel.NOTHING }).consumer({
      groupId: `erasure-read-${crypto.randomUUID()}`,
    });
    const done = new Map(ends.map((e) => [e.partition, Number(e.high) === 0]));
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: name, fromBeginning: true });
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      if ([...done.values()].every(Boolean)) finish();
      await consumer.run({
        eachBatch: async ({ batch }) => {
          for (const m of batch.messages) {
            out.push({
              topic,
              key: m.key?.toString() ?? '',
              value: m.value ? ((await registry.decode(m.value)) as Record<string, unknown>) : null,
              raw: m.value,
            });
          }
          const high = Number(ends.find((e) => e.partition === batch.partition)!.high);
          if (Number(batch.lastOffset()) + 1 >= high) done.set(batch.partition, true);
          if ([...done.values()].every(Boolean)) finish();
        },
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        finished,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`reading ${name} took over 60 s`)), 60_000);
        }),
      ]).finally(() => clearTimeout(timer));
    } finally {
      await consumer.disconnect();
    }
  }
  return out;
}

/** Whether any byte of the message, key or value, decoded or raw, spells `text`. */
const names = (m: Decoded, text: string) =>
  m.key.includes(text) ||
  (m.raw?.includes(text) ?? false) ||
  JSON.stringify(m.value, (_, v: unknown) =>
    v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer'
      ? Buffer.from((v as { data: number[] }).data).toString('latin1')
      : v,
  ).includes(text);

describe('erasure through Kafka: crypto-shredding', () => {
  let api: RunningApi;
  let projectId: string;
  let admin: string;
  const gone = `gone-${crypto.randomUUID()}`;
  const goneMail = `${crypto.randomUUID()}@erased.example.com`;
  const kept = `kept-${crypto.randomUUID()}`;
  const keptMail = `${crypto.randomUUID()}@kept.example.com`;
  const SINKS = Object.keys(PROCESSORS) as (keyof typeof PROCESSORS)[];

  const runSinksToEnd = async () => {
    const running = await startProcessors(services(), SINKS);
    try {
      await waitForSink('raw-sink', topicName('events'), 120_000);
      await waitForAnalytics(120_000);
    } finally {
      await Promise.all(running.map((r) => r.stop()));
    }
  };
  /** The user's rows per table; the logs of changed users (which a replay adds to) left out. */
  const rowsOf = async (user: string) => {
    const counts: Record<string, number> = {};
    for (const t of USER_DATA_TABLES) {
      counts[t] = await count(`select 1 from ${t} where project_id = $1 and user_id = $2`, [projectId, user]);
    }
    return counts;
  };
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

  before(async () => {
    await isolateTopics();
    api = await startTestApi();
    const project = await newProject(['admin']);
    [projectId, admin] = [project.projectId, project.keys[0]!];
    for (const [user, mail] of [
      [gone, goneMail],
      [kept, keptMail],
    ] as const) {
      const identified = await call(api, 'POST', '/users/identify', {
        key: admin,
        json: { user_id: user, properties: { contact: mail, plan: 'pro' } },
      });
      assert.equal(identified.status, 201);
      const events = Array.from({ length: 6 }, (_, i) => ({
        user_id: user,
        event: i % 2 ? 'click' : 'page_view',
        // A value that names the user in the event itself (the PII filter keeps it: no e-mail shape).
        properties: { page: '/settings', account: `${user}#${i}` },
        timestamp: new Date(Date.now() - (6 - i) * 60_000).toISOString(),
        // Clients derive message ids from user ids more often than one would hope.
        message_id: i === 0 ? `${user}-signup` : `${user}-${i}`,
      }));
      assert.equal((await call(api, 'POST', '/events/batch', { key: admin, json: { events } })).status, 202);
    }
    await runSinksToEnd();
  });

  after(async () => {
    await api.close();
    await closeServices();
  });

  it('keys every message by a pseudonym and seals what names the user; the user key opens it', async () => {
    const messages = await readTopics(['events', 'sessions', 'users']);
    const ref = await userRefOf(services().db, projectId, gone);
    const mine = messages.filter((m) => m.key === `${projectId}:${ref}`);
    assert.deepEqual([...new Set(mine.map((m) => m.topic))].sort(), ['events', 'sessions', 'users']);
    for (const m of messages) assert.ok(!names(m, gone) && !names(m, goneMail), `${m.topic} ${m.key} names the user`);
    // Still an event for the data engineer: name and times in the clear.
    const event = mine.find((m) => m.topic === 'events')!.value!;
    assert.equal(event.user_ref, ref);
    assert.ok(['click', 'page_view'].includes(event.event as string));
    const { rows } = await services().db.query<{ key: Buffer }>(
      'select key from user_keys where project_id = $1 and user_ref = $2',
      [projectId, ref],
    );
    const opened = openValue(rows[0]!.key, `${projectId}:${ref}`, event.sealed as Buffer) as Record<string, string>;
    assert.equal(opened.user_id, gone);
    assert.match(opened.properties!, new RegExp(gone));
    // The message id travels sealed; in the clear, a token of it under the user's key, the same in the chain.
    assert.match(opened.message_id!, new RegExp(`^${gone}-`));
    assert.equal(event.message_id, '');
    assert.equal(event.message_ref, messageRef(rows[0]!.key, opened.message_id!));
    const chained = mine
      .filter((m) => m.topic === 'sessions')
      .flatMap((m) => (m.value!.sessions as { events: { message_ref: string }[] }[]).flatMap((s) => s.events));
    assert.ok(chained.some((e) => e.message_ref === event.message_ref));
    // Each event of the user stored once, under the id the client sent.
    assert.equal(
      await count('select 1 from raw_events where project_id = $1 and message_id = $2', [projectId, `${gone}-signup`]),
      1,
    );
    assert.equal(
      await count('select 1 from session_events where project_id = $1 and message_id like $2', [
        projectId,
        `${gone}-%`,
      ]),
      6,
    );
  });

  it('after DELETE /users/{id} no topic, table, dead letter or replay yields the user; others are intact', async () => {
    const ref = await userRefOf(services().db, projectId, gone);
    assert.ok(total(await rowsOf(gone)) > 0);
    await services().db.query(
      `insert into dead_letters (processor, topic, partition, kafka_offset, message_key, payload, error)
       values ('raw-sink', $1, 0, 999999, $2, 'x', 'a refused message of the user')`,
      [topicName('events'), `${projectId}:${ref}`],
    );
    const keptBefore = await rowsOf(kept);

    const deleted = await call(api, 'DELETE', `/users/${gone}`, { key: admin });
    assert.equal(deleted.status, 200);
    assert.equal(total(await rowsOf(gone)), 0);
    assert.equal(await count('select 1 from user_keys where project_id = $1 and user_ref = $2', [projectId, ref]), 0);
    assert.equal(await count('select 1 from dead_letters where message_key = $1', [`${projectId}:${ref}`]), 0);

    // The user's messages are still on the topics, but nothing the service holds opens them.
    const messages = await readTopics(['events', 'sessions', 'users']);
    assert.ok(messages.some((m) => m.key === `${projectId}:${ref}` && m.value !== null));
    for (const m of messages) assert.ok(!names(m, gone) && !names(m, goneMail), `${m.topic} ${m.key} names the user`);

    // A replay from offset 0 of every sink rebuilds the tables without the user, and the others' as they were.
    await runReplay();
    await runSinksToEnd();
    assert.equal(total(await rowsOf(gone)), 0);
    assert.deepEqual(await rowsOf(kept), keptBefore);
    assert.equal(await count('select 1 from raw_events where project_id = $1 and user_id = $2', [projectId, kept]), 6);
    assert.ok((await count('select 1 from sessions where project_id = $1 and user_id = $2', [projectId, kept])) > 0);
    const got = await call<{ properties: Record<string, unknown> }>(api, 'GET', `/users/${kept}`, { key: admin });
    assert.equal(got.body.properties.contact, keptMail);
  });

  it('a user erased and seen again starts afresh under a new key', async () => {
    const again = await call(api, 'POST', '/events', { key: admin, json: { user_id: gone, event: 'click' } });
    assert.equal(again.status, 202);
    await runSinksToEnd();
    assert.equal(await count('select 1 from raw_events where project_id = $1 and user_id = $2', [projectId, gone]), 1);
  });

  it('an event sent as soon as the erasure answered is sealed with a new key, not the erased one', async () => {
    const user = `quick-${crypto.randomUUID()}`;
    const send = () => call(api, 'POST', '/events', { key: admin, json: { user_id: user, event: 'click' } });
    // The API now keeps the user's key and holds the erasure epoch under lease (lib/lease.ts).
    assert.equal((await send()).status, 202);
    assert.equal((await call(api, 'DELETE', `/users/${user}`, { key: admin })).status, 200);
    assert.equal((await send()).status, 202);
    await runSinksToEnd();
    // The first event went with the erased key; the second is the user's only one.
    assert.equal(await count('select 1 from raw_events where project_id = $1 and user_id = $2', [projectId, user]), 1);
  });
});
