import type { Kafka } from 'kafkajs';
import { bySize, createProducer, type Producer } from '../lib/kafka/client.js';
import type { Logger } from '../lib/log.js';
import { type SchemaRegistry, registerValueSchema } from '../lib/kafka/registry.js';
import { type TopicKey, topicName } from '../lib/kafka/topics.js';
import { unavailable } from './errors.js';

export interface OutgoingMessage {
  key: string;
  /** null = tombstone */
  value: object | null;
  /** epoch ms */
  timestamp: number;
}

/** Seconds a client told 503 by the publisher waits before sending the same request again. */
const RETRY_AFTER_S = 5;

export interface PublisherLimits {
  /** How long a publish waits for Kafka before it throws 503 (PI_INGEST_DEADLINE_MS). */
  deadlineMs: number;
  /**
   * Sends still waiting on Kafka beyond which a new publish is refused at once: a silent broker
   * must not gather every request of the outage in memory, each with its encoded messages.
   */
  maxWaiting?: number;
}

const refused = () =>
  unavailable('The event store is unavailable; nothing was applied. Retry the same request later.', RETRY_AFTER_S);

/**
 * What one send carries at most: a request's messages of one user share a partition, and kafkajs
 * puts a send's messages of one partition in one record batch, which the broker refuses above 1 MB.
 */
const MAX_SEND_BYTES = 512 * 1024;

/**
 * The API's writer to Kafka: Confluent-framed Avro; resolves once Kafka has the messages (acks=all).
 * A large request goes out in several sends; if a later one fails, the client's retry repeats the
 * earlier ones too, which the sinks drop by message_id.
 */
export class Publisher {
  private waiting = 0;

  private constructor(
    private readonly producer: Producer,
    private readonly registry: SchemaRegistry,
    private readonly schemaIds: Map<TopicKey, number>,
    private readonly limits: Required<PublisherLimits>,
    private readonly log: Logger,
  ) {}

  static async start(
    kafka: Kafka,
    registry: SchemaRegistry,
    log: Logger,
    topics: TopicKey[],
    limits: PublisherLimits,
  ): Promise<Publisher> {
    const schemaIds = new Map<TopicKey, number>();
    for (const topic of topics) schemaIds.set(topic, await registerValueSchema(registry, topic));
    const producer = createProducer(kafka);
    await producer.connect();
    return new Publisher(
      producer,
      registry,
      schemaIds,
      { deadlineMs: limits.deadlineMs, maxWaiting: limits.maxWaiting ?? 256 },
      log,
    );
  }

  /**
   * Resolves once Kafka has every message, or throws a 503 (Retry-After) when it refuses or stays
   * silent past the deadline. After a deadline the send may still land later: a retry of the same
   * request is then stored once only by carrying the same message_id (the sinks keep the first).
   */
  async publish(topic: TopicKey, messages: OutgoingMessage[]): Promise<void> {
    const schemaId = this.schemaIds.get(topic);
    if (schemaId === undefined) throw new Error(`publisher was not started for ${topic}`);
    if (this.waiting >= this.limits.maxWaiting) throw refused();
    this.waiting++;
    const sending = this.send(topic, schemaId, messages).finally(() => this.waiting--);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), this.limits.deadlineMs)),
    );
    let outcome: 'sent' | 'late';
    try {
      outcome = await Promise.race([sending, deadline]);
    } catch (err) {
      this.log.error({ err, topic, messages: messages.length }, 'kafka send failed');
      throw refused();
    } finally {
      clearTimeout(timer);
    }
    if (outcome === 'late') {
      // Heard, so that its later failure is logged rather than unhandled.
      sending.catch((err: unknown) => this.log.warn({ err, topic }, 'kafka send failed after its deadline'));
      this.log.error({ topic, messages: messages.length, deadline_ms: this.limits.deadlineMs }, 'kafka send timed out');
      throw refused();
    }
  }

  private async send(topic: TopicKey, schemaId: number, messages: OutgoingMessage[]): Promise<'sent'> {
    const encoded = await Promise.all(
      messages.map(async (m) => ({
        key: m.key,
        value: m.value === null ? null : await this.registry.encode(schemaId, m.value),
        timestamp: String(m.timestamp),
      })),
    );
    for (const part of bySize(encoded, MAX_SEND_BYTES)) {
      await this.producer.send({ topic: topicName(topic), acks: -1, messages: part });
    }
    return 'sent';
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
