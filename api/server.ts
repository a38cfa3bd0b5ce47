import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kafka } from 'kafkajs';
import type { Config } from '../lib/config.js';
import { type Pool, type PoolLimits, createPool } from '../lib/db.js';
import type { Logger } from '../lib/log.js';
import type { SchemaRegistry } from '../lib/kafka/registry.js';
import { createApp } from './app.js';
import { AuthThrottle } from './auth-throttle.js';
import { proxyTrust } from './client-address.js';
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

/**
 * The deadlines of the API's main pool (auth, rate limits, every route): no statement runs longer
 * than PI_PG_STATEMENT_TIMEOUT_MS, no request waits longer than PI_PG_ACQUIRE_TIMEOUT_MS for a
 * connection, no transaction sits idle longer than PI_PG_IDLE_IN_TRANSACTION_MS.
 */
export const apiPoolLimits = (config: Config): PoolLimits => ({
  statementTimeoutMs: config.pgStatementTimeoutMs,
  acquireTimeoutMs: config.pgAcquireTimeoutMs,
  idleInTransactionMs: config.pgIdleInTransactionMs,
});

/** Starts the HTTP API on config.host:config.port (0 = any free port). */
export async function startApi(
  config: Config,
  deps: { db: Pool; kafka: Kafka; registry: SchemaRegistry; log: Logger },
): Promise<RunningApi> {
  const log = deps.log.child({ component: 'api' });
  const admin = deps.kafka.admin();
  await admin.connect();
  const publisher = await Publisher.start(deps.kafka, deps.registry, log, ['events', 'users'], {
    deadlineMs: config.ingestDeadlineMs,
  });
  // Streamed exports read for as long as their reader takes: a pool of their own, so that slow
  // readers wait for each other (then 503) and never for the connections of everything else. A
  // cursor's reads are one statement, so no statement timeout here: idle readers are dropped.
  const exportDb = createPool(config.databaseUrl, config.exportConnections, {
    acquireTimeoutMs: config.pgAcquireTimeoutMs,
  });
  exportDb.on('error', (err: Error & { code?: string }) =>
    log.warn({ message: err.message, code: err.code }, 'idle export connection failed'),
  );
  const health = new HealthMonitor({ db: deps.db, admin, registryUrl: config.schemaRegistryUrl });
  const authThrottle = new AuthThrottle(config.authFailuresPerMinute);
  const proxies = proxyTrust(config.trustedProxies);
  const { app } = createApp({
    db: deps.db,
    exports: { db: exportDb, idleMs: config.exportIdleMs, perProject: config.exportProjectConnections },
    authThrottle,
    proxies,
    admin,
    health,
    operatorToken: config.operatorToken,
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
    maxUnauthenticated: config.streamUnauthenticatedMax,
    throttle: authThrottle,
    proxies,
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
      await exportDb.end();
    },
  };
}
