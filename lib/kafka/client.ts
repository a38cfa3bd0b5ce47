import { Kafka, Partitioners, logLevel, type Admin, type ISocketFactory, type Producer, type LogEntry } from 'kafkajs';
import type { Config, KafkaLogLevel } from '../config.js';
import type { Logger } from '../log.js';
import { TOPICS, type TopicKey, topicName } from './topics.js';

// kafkajs is in maintenance mode: every Kafka call of the service goes through this module.
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

/** acks=all and idempotent: a resolved send means the broker has the message durably. */
export function createProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
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
