/**
 * `npm run topic:tail -- <topic> [--from-beginning] [--max n] [--to-end] [--idle-ms ms] [--project id] [--open]`:
 * one decoded JSON line per message of any Avro topic — the data engineer's view. Stops at Ctrl-C, after `--max`
 * messages, at the end of the topic as it was when the tail started (`--to-end`), or after `--idle-ms` without a
 * message. `--open` opens each sealed user id, properties and message ids with the user's key from this deployment's
 * Postgres (an operator's view: the keys are the service's secrets; an erased user's key is gone and their values stay
 * sealed).
 */
import { UsageError, runCli } from '../lib/cli.js';
import { loadConfig } from '../lib/config.js';
import { createPool } from '../lib/db.js';
import { createKafka } from '../lib/kafka/client.js';
import { createRegistry } from '../lib/kafka/registry.js';
import { createLogger } from '../lib/log.js';
import { openValue } from '../domain/sealed-user.js';
import { userKeyLookup, userKeysOf } from '../store/user-keys.js';

const positive = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name}: expected a whole number ≥ 1`);
  return n;
};

/** A value sealed for a user (pi.events.v1, pi.users.v1, pi.sessions.v1): whose it is and the sealed bytes. */
interface Sealed {
  project_id: string;
  user_ref: string;
  sealed: Buffer;
}

const isSealed = (v: unknown): v is Sealed =>
  typeof v === 'object' && v !== null && typeof (v as Sealed).user_ref === 'string' && (v as Sealed).user_ref !== '';

/** A JSON text (the properties the topics carry as text) as its value, for reading. */
const parsedText = (text: unknown): unknown => {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * `value` with `sealed` replaced by what it opens to (`opened`: the user id, properties and, in
 * messages written since they are sealed, the message ids), or left sealed when the key is gone.
 */
function opened(value: Sealed, key: Buffer | undefined): unknown {
  if (!key) return { ...value, opened: null };
  const { sealed, ...rest } = value;
  const { properties, ...named } = openValue(key, `${value.project_id}:${value.user_ref}`, sealed) as {
    user_id: string;
    properties: unknown;
    message_id?: string;
    message_ids?: string[];
  };
  const readable = Array.isArray(properties) ? properties.map(parsedText) : parsedText(properties);
  return { ...rest, opened: { ...named, properties: readable } };
}

/** Avro bytes (a sealed field) print as base64, not as a list of numbers. */
const bytesAsBase64 = (_: string, v: unknown): unknown =>
  v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer'
    ? Buffer.from((v as { data: number[] }).data).toString('base64')
    : v;

await runCli(
  {
    usage:
      'npm run topic:tail -- <topic> [--from-beginning] [--max n] [--to-end] [--idle-ms ms] [--project id] [--open]',
    summary:
      'Prints the decoded messages of a topic (pi.events.v1, pi.users.v1, pi.sessions.v1 …), one JSON line each.',
    positionals: 'topic',
    options: {
      'from-beginning': { type: 'boolean', help: 'read from the first message (default: only new ones)' },
      max: { type: 'string', arg: 'n', help: 'exit after n messages' },
      'to-end': { type: 'boolean', help: 'exit at the end of the topic as it was when the tail started' },
      'idle-ms': { type: 'string', arg: 'ms', help: 'exit once no message arrived for this long' },
      project: { type: 'string', arg: 'id', help: "only this project's messages" },
      open: {
        type: 'boolean',
        help: "open sealed user ids, properties and message ids with the users' keys (operators)",
      },
    },
  },
  async ({ values, positionals }) => {
    const [topic, ...extra] = positionals;
    if (!topic || extra.length > 0) throw new UsageError('expected one topic name');
    const max = positive('max', values.max) ?? Infinity;
    const idleMs = positive('idle-ms', values['idle-ms']);
    const config = loadConfig();
    // stdout carries the messages only; logs go to stderr.
    const log = createLogger('warn', { service: 'topic-tail' }, 2);
    const kafka = createKafka(config, log);
    const registry = createRegistry(config.schemaRegistryUrl);

    // Where --to-end stops: each partition's end now (partitions empty now are done at once). An
    // unknown topic is one line, not kafkajs retrying its metadata for half a minute.
    const admin = kafka.admin();
    await admin.connect();
    const ends = await (async () => {
      const topics = await admin.listTopics();
      if (!topics.includes(topic)) {
        const ours = topics.filter((t) => !t.startsWith('_')).sort();
        const named = ours.length > 12 ? [...ours.slice(0, 12), `… ${ours.length - 12} more`] : ours;
        throw new UsageError(
          `no topic ${topic} on ${config.kafkaBrokers.join(',')} (topics: ${named.join(', ') || 'none'})`,
        );
      }
      return admin.fetchTopicOffsets(topic);
    })().finally(() => admin.disconnect());
    const db = values.open ? createPool(config.databaseUrl, 1) : undefined;
    const remaining = new Map(
      ends
        .filter((e) => Number(e.high) > (values['from-beginning'] ? Number(e.low) : Number(e.high)))
        .map((e) => [e.partition, Number(e.high)]),
    );

    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      if (idleMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(finish, idleMs);
    };
    if (values['to-end'] && remaining.size === 0) finish();
    process.once('SIGINT', finish);

    const consumer = kafka.consumer({ groupId: `pi.topic-tail.${process.pid}.${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: values['from-beginning'] ?? false });
    armIdle();
    // stderr: a tail with nothing to show yet says so, and what it waits for.
    console.error(
      `waiting for ${values['from-beginning'] ? '' : 'new '}messages on ${topic}${values.project ? ` of project ${values.project}` : ''}… (Ctrl-C to stop)`,
    );
    let seen = 0;
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          if (seen >= max) return;
          let value: unknown = message.value === null ? null : await registry.decode(message.value);
          // A tombstone has no value: its key names the project (<project>:<pseudonym>).
          const project =
            value === null ? message.key?.toString().split(':')[0] : (value as { project_id?: unknown }).project_id;
          if (values.project && project !== values.project) continue;
          if (db && isSealed(value)) {
            const keys = await userKeysOf(db, [{ projectId: value.project_id, ref: value.user_ref }]);
            value = opened(value, keys.get(userKeyLookup(value.project_id, value.user_ref)));
          }
          console.log(
            JSON.stringify(
              {
                topic,
                partition: batch.partition,
                offset: Number(message.offset),
                timestamp: new Date(Number(message.timestamp)).toISOString(),
                key: message.key?.toString() ?? null,
                value,
              },
              bytesAsBase64,
            ),
          );
          armIdle();
          if (++seen >= max) finish();
        }
        // lastOffset counts the transaction markers a transactional topic (pi.sessions.v1) ends with.
        if (values['to-end'] && Number(batch.lastOffset()) + 1 >= (remaining.get(batch.partition) ?? Infinity)) {
          remaining.delete(batch.partition);
          if (remaining.size === 0) finish();
        }
      },
    });
    // Disconnecting from inside eachBatch would wait for eachBatch itself: stop from here.
    await finished;
    clearTimeout(idle);
    await consumer.disconnect();
    await db?.end();
  },
);
