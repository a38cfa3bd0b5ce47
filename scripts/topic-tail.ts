/**
 * `npm run topic:tail -- <topic> [--from-beginning] [--max n] [--to-end] [--idle-ms ms]`: one decoded JSON
 * line per message of any Avro topic — the data engineer's view. Stops at Ctrl-C, after `--max` messages, at
 * the end of the topic as it was when the tail started (`--to-end`), or after `--idle-ms` without a message.
 */
import { UsageError, runCli } from '../lib/cli.js';
import { loadConfig } from '../lib/config.js';
import { createKafka } from '../lib/kafka/client.js';
import { createRegistry } from '../lib/kafka/registry.js';
import { createLogger } from '../lib/log.js';

const positive = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name}: expected a whole number ≥ 1`);
  return n;
};

/** Avro bytes (a sealed field) print as base64, not as a list of numbers. */
const bytesAsBase64 = (_: string, v: unknown): unknown =>
  v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer'
    ? Buffer.from((v as { data: number[] }).data).toString('base64')
    : v;

await runCli(
  {
    usage: 'npm run topic:tail -- <topic> [--from-beginning] [--max n] [--to-end] [--idle-ms ms]',
    summary:
      'Prints the decoded messages of a topic (pi.events.v1, pi.users.v1, pi.sessions.v1 …), one JSON line each.',
    positionals: 'topic',
    options: {
      'from-beginning': { type: 'boolean', help: 'read from the first message (default: only new ones)' },
      max: { type: 'string', arg: 'n', help: 'exit after n messages' },
      'to-end': { type: 'boolean', help: 'exit at the end of the topic as it was when the tail started' },
      'idle-ms': { type: 'string', arg: 'ms', help: 'exit once no message arrived for this long' },
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

    // Where --to-end stops: each partition's end now (partitions empty now are done at once).
    const admin = kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
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
    let seen = 0;
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          if (seen >= max) return;
          const value: unknown = message.value === null ? null : await registry.decode(message.value);
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
  },
);
