import type { Kafka } from 'kafkajs';
import type { Config } from './config.js';
import { type Pool, type PoolLimits, createPool } from './db.js';
import { createKafka, ensureTopics } from './kafka/client.js';
import type { Logger } from './log.js';
import { runMigrations } from './migrate.js';
import { type SchemaRegistry, createRegistry, registerValueSchema } from './kafka/registry.js';
import { TOPICS, type TopicKey } from './kafka/topics.js';

export interface Services {
  config: Config;
  log: Logger;
  db: Pool;
  kafka: Kafka;
  registry: SchemaRegistry;
  close(): Promise<void>;
}

export function connectServices(config: Config, log: Logger, poolSize = 10, limits: PoolLimits = {}): Services {
  const db = createPool(config.databaseUrl, poolSize, limits);
  // The error carries its client; log what matters, not the whole connection object.
  db.on('error', (err: Error & { code?: string }) =>
    log.error({ message: err.message, code: err.code }, 'idle postgres client failed'),
  );
  return {
    config,
    log,
    db,
    kafka: createKafka(config, log),
    registry: createRegistry(config.schemaRegistryUrl),
    close: () => db.end(),
  };
}

/** Start-up work that every entry point may run, idempotently: migrations, topics, schemas. */
export async function prepare(services: Services): Promise<void> {
  const applied = await runMigrations(services.config.databaseUrl);
  if (applied.length > 0) services.log.info({ applied }, 'migrations applied');
  const admin = services.kafka.admin();
  await admin.connect();
  try {
    await ensureTopics(admin, services.config);
  } finally {
    await admin.disconnect();
  }
  for (const key of Object.keys(TOPICS) as TopicKey[]) await registerValueSchema(services.registry, key);
}
