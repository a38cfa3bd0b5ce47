import type { Kafka } from 'kafkajs';
import { createProducer, type Producer } from '../lib/kafka/client.js';
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

/** The API's writer to Kafka: Confluent-framed Avro; resolves once Kafka has the messages (acks=all). */
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
      await this.producer.send({ topic: topicName(topic), acks: -1, messages: encoded });
    } catch (err) {
      this.log.error({ err, topic, messages: messages.length }, 'kafka send failed');
      throw unavailable('The event store is unavailable; nothing was applied. Retry the request.');
    }
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
