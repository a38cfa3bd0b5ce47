import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kafka } from 'kafkajs';
import type { Config } from '../lib/config.js';
import type { Pool } from '../lib/db.js';
import type { Logger } from '../lib/log.js';
import type { SchemaRegistry } from '../lib/kafka/registry.js';
import { createApp } from './app.js';
import { HealthMonitor } from './health.js';
import { Publisher } from './publisher.js';
import { attachStream } from './stream/server.js';
import { targetPolicy } from '../lib/targets.js';
import { SecretBox } from '../lib/secret-box.js';

export interface RunningApi {
  baseUrl: string;
  streamUrl: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the HTTP API on config.host:config.port (0 = any free port). */
export async function startApi(
  config: Config,
  deps: { db: Pool; kafka: Kafka; registry: SchemaRegistry; log: Logger },
): Promise<RunningApi> {
  const log = deps.log.child({ component: 'api' });
  const admin = deps.kafka.admin();
  await admin.connect();
  const publisher = await Publisher.start(deps.kafka, deps.registry, log, ['events', 'users']);
  const health = new HealthMonitor({ db: deps.db, admin, registryUrl: config.schemaRegistryUrl });
  const { app } = createApp({
    db: deps.db,
    admin,
    health,
    publisher,
    registryUrl: config.schemaRegistryUrl,
    targets: targetPolicy(config.webhookAllowHosts),
    secrets: new SecretBox(config.secretKeys),
    workflowWaitMs: config.workflowWaitMs,
    log,
  });
  const server = http.createServer(app.callback());
  const stream = attachStream(server, {
    db: deps.db,
    databaseUrl: config.databaseUrl,
    log,
    pollMs: config.pollIntervalMs,
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  log.info({ port }, 'api listening');
  return {
    port,
    baseUrl: `http://${config.host}:${port}/v1`,
    streamUrl: `ws://${config.host}:${port}/v1/stream`,
    async close() {
      health.stop();
      await stream.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await publisher.stop();
      await admin.disconnect();
    },
  };
}
