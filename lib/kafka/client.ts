import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type ICustomPartitioner,
  type ISocketFactory,
  type Producer,
  type LogEntry,
} from 'kafkajs';
import type { Config, KafkaLogLevel } from '../config.js';
import type { Logger } from '../log.js';
import { stopIdleRequestChecks } from './idle-request-checks.js';
import { TOPICS, type TopicKey, topicName } from './topics.js';

// kafkajs is in maintenance mode: every Kafka call of the service goes through this module.
stopIdleRequestChecks();

export type { Admin, Consumer, EachBatchPayload, Kafka, Producer, KafkaMessage } from 'kafkajs';

const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

const fromName: Record<KafkaLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

/**
 * `socketFactory` replaces how connections to brokers are opened; tests route them through a
 * proxy of their own to make the broker fall silent for one client without touching the broker.
 */
export function createKafka(
  config: Config,
  log: Logger,
  clientId = config.kafkaClientId,
  socketFactory?: ISocketFactory,
): Kafka {
  return new Kafka({
    clientId,
    ...(socketFactory && { socketFactory }),
    brokers: config.kafkaBrokers,
    logLevel: fromName[config.kafkaLogLevel],
    logCreator:
      () =>
      ({ level, namespace, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        log[levels[level] ?? 'info']({ kafkajs: namespace, ...rest }, message);
      },
    retry: { initialRetryTime: 100, retries: 8 },
  });
}

/** Keys whose partitions a producer remembers, per topic; past that the memory starts again. */
const REMEMBERED_KEYS = 100_000;

/**
 * kafkajs's default (Java-compatible murmur2) partitioner, remembering each key's partition per
 * topic and partition count: a user's events share a key, and murmur2 of every message was 15 %
 * of the API's CPU at a burst (docs/performance.md). Messages without a key, or with a partition
 * of their own, go to the inner one.
 */
export const rememberingPartitioner: ICustomPartitioner = () => {
  const inner = Partitioners.DefaultPartitioner();
  const byTopic = new Map<string, { partitions: number; byKey: Map<string, number> }>();
  return (args) => {
    const { key, partition: asked } = args.message;
    if (key === null || key === undefined || (asked !== null && asked !== undefined)) return inner(args);
    // A string key is hashed as UTF-8, a Buffer as its bytes: the two are remembered apart.
    const text = typeof key === 'string' ? `s${key}` : `b${key.toString('latin1')}`;
    let topic = byTopic.get(args.topic);
    if (!topic || topic.partitions !== args.partitionMetadata.length || topic.byKey.size >= REMEMBERED_KEYS) {
      topic = { partitions: args.partitionMetadata.length, byKey: new Map() };
      byTopic.set(args.topic, topic);
    }
    let partition = topic.byKey.get(text);
    if (partition === undefined) {
      partition = inner(args);
      topic.byKey.set(text, partition);
    }
    return partition;
  };
};

/** acks=all and idempotent: a resolved send means the broker has the message durably. */
export function createProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: rememberingPartitioner,
  });
}

export async function ensureTopics(admin: Admin, config: Config, keys: TopicKey[] = Object.keys(TOPICS) as TopicKey[]) {
  const existing = new Set(await admin.listTopics());
  const missing = keys.filter((key) => !existing.has(topicName(key)));
  if (missing.length === 0) return;
  await admin.createTopics({
    waitForLeaders: true,
    topics: missing.map((key) => ({
      topic: topicName(key),
      numPartitions: config.topicPartitions,
      replicationFactor: config.topicReplicationFactor,
      configEntries: [
        { name: 'cleanup.policy', value: TOPICS[key].compacted ? 'compact' : 'delete' },
        { name: 'retention.ms', value: String(TOPICS[key].retentionMs) },
      ],
    })),
  });
}

/**
 * Splits messages, in order, into sends of at most `maxBytes` of keys and values (a message larger
 * than that goes alone): the broker refuses a record batch above `message.max.bytes` (1 MB), and
 * kafkajs puts a send's messages for one partition in one batch.
 */
export function bySize<T extends { key?: string | Buffer | null; value: Buffer | null }>(
  messages: T[],
  maxBytes: number,
): T[][] {
  const sends: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const m of messages) {
    const bytes = (m.value?.length ?? 0) + (m.key ? Buffer.byteLength(m.key) : 0);
    if (current.length > 0 && size + bytes > maxBytes) {
      sends.push(current);
      current = [];
      size = 0;
    }
    current.push(m);
    size += bytes;
  }
  if (current.length > 0) sends.push(current);
  return sends;
}
