// First: it swaps modules of kafkajs's produce path before kafkajs loads them.
import './produce-mends.js';
import { createRequire } from 'node:module';
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

export type { Admin, Consumer, EachBatchPayload, Producer, KafkaMessage, PartitionMetadata } from 'kafkajs';
export { Kafka, Partitioners, logLevel } from 'kafkajs';

/** kafkajs's error classes, which Node's ESM loader does not find among its CommonJS exports by name. */
export const { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSProtocolError } = createRequire(
  import.meta.url,
)('kafkajs') as typeof import('kafkajs');

type Level = 'error' | 'warn' | 'info' | 'debug';

const levels: Record<number, Level> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * Broker answers kafkajs logs at error (namespace Connection, "Response <request>") although it
 * retries them: a coordinator that a new cluster is still creating (`__consumer_offsets` on a
 * group's first FindCoordinator, `__transaction_state` and producer ids on the first
 * InitProducerId). A request still refused after the retries reaches our code as an error and is
 * logged there. Texts of kafkajs 2.2.4's `src/protocol/error.js` (pinned).
 */
const STARTING_COORDINATOR = new Set([
  'The group coordinator is not available', // GROUP_COORDINATOR_NOT_AVAILABLE (15)
  "The coordinator is loading and hence can't process requests for this group", // COORDINATOR_LOAD_IN_PROGRESS (14)
]);

/**
 * kafkajs warns this for every producer whose retries are bounded. The hazard it names: a send
 * given up on may still have landed, and the next send reuses its sequence numbers, so the broker
 * could take new messages for a duplicate and drop them. The service's only bounded producers are
 * the sessionizer's transactional ones, which abort the transaction and are replaced by a new
 * producer (a new epoch, sequences from 0) after any failed send; `createProducer` retries without
 * bound.
 */
const BOUNDED_RETRIES = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';

/** The level a kafkajs log line is kept at: its own, or debug for the known-harmless ones above. */
export function kafkaLineLevel(
  level: logLevel,
  namespace: string,
  message: string,
  extra: Record<string, unknown>,
): Level {
  const own = levels[level] ?? 'info';
  if (own === 'error' && namespace === 'Connection' && message.startsWith('Response ')) {
    return typeof extra.error === 'string' && STARTING_COORDINATOR.has(extra.error) ? 'debug' : own;
  }
  if (own === 'warn' && namespace === 'Producer' && message === BOUNDED_RETRIES) return 'debug';
  return own;
}

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
        log[kafkaLineLevel(level, namespace, message, rest)]({ kafkajs: namespace, ...rest }, message);
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

/**
 * acks=all and idempotent: a resolved send means the broker has the message durably. Retries are
 * unbounded, as kafkajs intends for an idempotent producer: a send given up on might have landed,
 * and the next one would reuse its sequence numbers (see BOUNDED_RETRIES). The publisher's deadline
 * answers the client meanwhile (503); a send that lands late is kept once by its message_id. Waits
 * between retries stay short so that a send finds a broker back soon after an outage.
 */
export function createProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 2_000 },
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
