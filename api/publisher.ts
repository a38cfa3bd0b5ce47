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
  private constructor(
    private readonly producer: Producer,
    private readonly registry: SchemaRegistry,
    private readonly schemaIds: Map<TopicKey, number>,
    private readonly log: Logger,
  ) {}

  static async start(kafka: Kafka, registry: SchemaRegistry, log: Logger, topics: TopicKey[]): Promise<Publisher> {
    const schemaIds = new Map<TopicKey, number>();
    for (const topic of topics) schemaIds.set(topic, await registerValueSchema(registry, topic));
    const producer = createProducer(kafka);
    await producer.connect();
    return new Publisher(producer, registry, schemaIds, log);
  }

  async publish(topic: TopicKey, messages: OutgoingMessage[]): Promise<void> {
    const schemaId = this.schemaIds.get(topic);
    if (schemaId === undefined) throw new Error(`publisher was not started for ${topic}`);
    const encoded = await Promise.all(
      messages.map(async (m) => ({
        key: m.key,
        value: m.value === null ? null : await this.registry.encode(schemaId, m.value),
        timestamp: String(m.timestamp),
      })),
    );
    try {
      for (const part of bySize(encoded, MAX_SEND_BYTES)) {
        await this.producer.send({ topic: topicName(topic), acks: -1, messages: part });
      }
    } catch (err) {
      this.log.error({ err, topic, messages: messages.length }, 'kafka send failed');
      throw unavailable('The event store is unavailable; nothing was applied. Retry the request.');
    }
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
