import type { Kafka } from 'kafkajs';
import { createProducer, type Producer } from '../lib/kafka.js';
import type { Logger } from '../lib/log.js';
import { type SchemaRegistry, registerValueSchema } from '../lib/registry.js';
import { topicName, userKey } from '../lib/topics.js';
import type { TrackedEventRecord } from '../lib/tracked-event.js';
import { unavailable } from './errors.js';

/** Writes accepted events to pi.events.v1 as Confluent-framed Avro; resolves once Kafka has them (acks=all). */
export class EventPublisher {
  private constructor(
    private readonly producer: Producer,
    private readonly registry: SchemaRegistry,
    private readonly schemaId: number,
    private readonly topic: string,
    private readonly log: Logger,
  ) {}

  static async start(kafka: Kafka, registry: SchemaRegistry, log: Logger): Promise<EventPublisher> {
    const schemaId = await registerValueSchema(registry, 'events');
    const producer = createProducer(kafka);
    await producer.connect();
    return new EventPublisher(producer, registry, schemaId, topicName('events'), log);
  }

  async publish(records: TrackedEventRecord[]): Promise<void> {
    const messages = await Promise.all(
      records.map(async (record) => ({
        key: userKey(record.project_id, record.user_id),
        value: await this.registry.encode(this.schemaId, record),
        timestamp: String(record.received_at),
      })),
    );
    try {
      await this.producer.send({ topic: this.topic, acks: -1, messages });
    } catch (err) {
      this.log.error({ err, events: records.length }, 'kafka send failed');
      throw unavailable('The event store is unavailable; nothing was accepted. Retry with the same message_id values.');
    }
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
