import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { type TopicKey, avroSchema, topicName } from './topics.js';

export type { SchemaRegistry };

export function createRegistry(url: string): SchemaRegistry {
  return new SchemaRegistry({ host: url, retry: { retries: 5, initialRetryTimeInSecs: 0.2 } });
}

/**
 * Registers the topic's Avro schema under `<topic>-value` (BACKWARD) and returns its id.
 * Registering an unchanged schema returns the existing id, so this runs at every start-up.
 */
export async function registerValueSchema(registry: SchemaRegistry, key: TopicKey): Promise<number> {
  const { id } = await registry.register(
    { type: SchemaType.AVRO, schema: avroSchema(key) },
    { subject: `${topicName(key)}-value`, compatibility: COMPATIBILITY.BACKWARD },
  );
  return id;
}
