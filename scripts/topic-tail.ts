import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.js';
import { createKafka } from '../lib/kafka.js';
import { createLogger } from '../lib/log.js';
import { createRegistry } from '../lib/registry.js';

const usage = 'usage: npm run topic:tail -- <topic> [--from-beginning] [--max <n>] [--idle-ms <ms>]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'from-beginning': { type: 'boolean', default: false },
    max: { type: 'string' },
    'idle-ms': { type: 'string' },
  },
});
const topic = positionals[0];
if (!topic) {
  console.error(usage);
  process.exit(2);
}
const max = values.max === undefined ? Infinity : Number(values.max);
// With --idle-ms the tail exits once no message arrived for that long (scripts and tests).
const idleMs = values['idle-ms'] === undefined ? undefined : Number(values['idle-ms']);
let idleTimer: NodeJS.Timeout | undefined;
const armIdle = () => {
  if (idleMs === undefined) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void stop(), idleMs);
};

const config = loadConfig();
// stdout carries the messages only; logs go to stderr.
const log = createLogger('warn', { service: 'topic-tail' }, 2);
const registry = createRegistry(config.schemaRegistryUrl);
const consumer = createKafka(config, log).consumer({ groupId: `pi.topic-tail.${process.pid}.${Date.now()}` });
let seen = 0;
const stop = async () => {
  await consumer.disconnect();
  process.exit(0);
};
process.once('SIGINT', () => void stop());

await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: values['from-beginning'] });
armIdle();
// One decoded JSON line per message: the data engineer's view of any Avro topic.
await consumer.run({
  autoCommit: false,
  eachMessage: async ({ partition, message }) => {
    const value: unknown = message.value === null ? null : await registry.decode(message.value);
    console.log(
      JSON.stringify({
        topic,
        partition,
        offset: Number(message.offset),
        timestamp: new Date(Number(message.timestamp)).toISOString(),
        key: message.key?.toString() ?? null,
        value,
      }),
    );
    armIdle();
    if (++seen >= max) await stop();
  },
});
