import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SecretKey, parseSecretKeys } from './secret-box.js';

/**
 * The service's configuration, read from the environment once and validated at boot:
 * a bad value stops the process with every problem listed, not the first one found.
 */
export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  kafkaBrokers: string[];
  kafkaClientId: string;
  schemaRegistryUrl: string;
  topicPartitions: number;
  /** Partitions a Kafka → Postgres sink applies at once (each in its own transaction). */
  sinkConcurrency: number;
  /**
   * A processor's fetch waits until this many bytes are ready or fetchMaxWaitMs passed: live
   * traffic then arrives in batches worth a transaction, not a message at a time.
   */
  fetchMinBytes: number;
  fetchMaxWaitMs: number;
  /**
   * A processor's fetch takes at most this many bytes of a partition: under a backlog, the size
   * of its batches. Larger batches carry more of each user's events, so a session is written once
   * for several of them (docs/adr/0069-backlog-drains-in-larger-batches.md).
   */
  fetchMaxBytes: number;
  topicReplicationFactor: number;
  logLevel: string;
  /**
   * Lowest level of kafkajs's own log lines passed on to ours. Retried broker answers (no leader
   * yet, coordinator moving, CONCURRENT_TRANSACTIONS) log at warn and error in normal operation.
   */
  kafkaLogLevel: KafkaLogLevel;
  /** Postgres port of the embedded server scripts/stack starts when DATABASE_URL is unset. */
  embeddedPostgresPort: number;
  /** SMTP server for scheduled reports (smtp:// or smtps://, credentials in the URL). */
  smtpUrl: string;
  /** From address of report mails. */
  mailFrom: string;
  /** Folder that DuckDB warehouse exports write into (a destination names a file inside it). */
  duckdbDir: string;
  /** Folder that Parquet warehouse exports write into (per project; a destination names a sub-folder). */
  parquetDir: string;
  /** Extra CA certificates (PEM file) trusted for outbound webhook deliveries. */
  webhookCaFile: string | undefined;
  /** Hosts or CIDR ranges that webhooks may reach although private or loopback (SSRF allow-list). */
  webhookAllowHosts: string[];
  /** First retry delay of a webhook delivery; each further retry waits twice as long. */
  webhookRetryBaseMs: number;
  /** Hosts or CIDR ranges a Postgres warehouse export may reach although private or loopback. */
  warehouseAllowHosts: string[];
  /**
   * How long a sender holds a claimed delivery; a live sender renews it every third of this while
   * the request runs, a sender that dies lets it go after this.
   */
  webhookLeaseMs: number;
  /** Deliveries one sender has in flight at once, all projects together. */
  webhookConcurrency: number;
  /** Deliveries of one project in flight at once, all senders together: one slow endpoint holds no more. */
  webhookProjectConcurrency: number;
  /** Warehouse exports one worker runs at once, all projects together (one export per project at a time). */
  warehouseConcurrency: number;
  /** Longest wait for a Postgres warehouse: connecting, and any one statement. */
  warehouseTimeoutMs: number;
  /**
   * Longest run of one warehouse export, all statements together: a destination that answers each
   * statement just in time still frees its runner after this (docs/adr/0084-tenant-isolated-exports.md).
   */
  warehouseRunDeadlineMs: number;
  /** How often listeners poll for work a missed NOTIFY did not announce, in ms. */
  pollIntervalMs: number;
  /**
   * The share of its time a worker's pass over a project's whole history (a new job, a new goal)
   * may work; it rests the remainder between steps, leaving the machine to live traffic (lib/pacing.ts).
   */
  backfillShare: number;
  /**
   * The share of its time a worker that keeps derived tables (jobs, workflows, cohorts) may spend
   * in passes: after each it rests in proportion, at most WORKER_MAX_REST_MS (lib/pacing.ts).
   */
  workerShare: number;
  /**
   * Each role's nice value (0–19): on a busy machine, accepting events comes first, then the
   * processors' live analytics, then the workers' passes (lib/role.ts).
   */
  nice: Record<Role, number>;
  /** How long GET /analytics/workflows waits for a newly asked-for goal to be mined before answering 202. */
  workflowWaitMs: number;
  /**
   * How long POST /events, /events/batch and the user routes wait for Kafka to take a write before
   * answering 503 with Retry-After: a silent broker (a long pause, a partition) is not a hang.
   */
  ingestDeadlineMs: number;
  /** The API's Postgres limits (docs/reliability.md): statement run time, pool wait, idle transaction. */
  pgStatementTimeoutMs: number;
  pgAcquireTimeoutMs: number;
  pgIdleInTransactionMs: number;
  /** Connections of the API's own pool for streamed exports; further exports wait, then get 503. */
  exportConnections: number;
  /** Streamed exports of one project at once, per API process; the next one gets 429 (a share of exportConnections). */
  exportProjectConnections: number;
  /** A streamed export whose reader takes nothing for this long is dropped and its connection freed. */
  exportIdleMs: number;
  /** Failed authentications (401) one client address may make per minute before it gets 429. */
  authFailuresPerMinute: number;
  /**
   * Which proxies' `X-Forwarded-For` the API believes (PI_TRUSTED_PROXIES): their addresses and
   * CIDR ranges, or a number of hops in front of it. Default none: the socket's peer is the client,
   * and a client cannot pick the address that per-address limits count (api/client-address.ts).
   */
  trustedProxies: TrustedProxies;
  /** Stream sockets that have not authenticated yet, at most, per API process. */
  streamUnauthenticatedMax: number;
  /**
   * Keys that seal secrets at rest (lib/secret-box.ts), the sealing one first: PI_SECRET_KEYS, or
   * the file PI_SECRET_KEYS_FILE names (default .stack/secret-keys, which scripts/stack writes).
   */
  secretKeys: SecretKey[];
  /** Extra CA certificates (PEM file) trusted for Postgres warehouse destinations. */
  warehouseCaFile: string | undefined;
  /**
   * The operator's bearer token for GET /health/details (PI_OPERATOR_TOKEN, at least 32
   * characters); unset, the details are not served over the API at all (api/routes/health.ts).
   */
  operatorToken: string | undefined;
}

/** `{ hops: n }`: the n proxies in front of the API, whatever their addresses; else these addresses and ranges. */
export type TrustedProxies = { hops: number } | { addresses: string[] };

export const KAFKA_LOG_LEVELS = ['nothing', 'error', 'warn', 'info', 'debug'] as const;
export type KafkaLogLevel = (typeof KAFKA_LOG_LEVELS)[number];

/** The service's roles, each a process of its own (npm run api|processors|workers; npm start runs all). */
export type Role = 'api' | 'processors' | 'workers';

/** PI_EXPORT_PROJECT_CONNECTIONS by default: half the default export pool, so two projects can always export. */
export const EXPORT_PROJECT_CONNECTIONS = 2;

/** An operator token guessed one request at a time must take forever: 32 hex characters are 128 bits. */
export const OPERATOR_TOKEN_MIN_LENGTH = 32;

export const EMBEDDED_PG_USER = 'postgres';
export const EMBEDDED_PG_PASSWORD = 'postgres';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** Where the local stack keeps the secret keys it generates (read when PI_SECRET_KEYS and PI_SECRET_KEYS_FILE are unset). */
export function localSecretKeysFile(env: NodeJS.ProcessEnv = process.env): string {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  return path.join(env.PI_STACK_DIR ?? path.join(root, '.stack'), 'secret-keys');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name}=${raw}: expected an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, fallback: string, protocols: string[]): string => {
    const raw = env[name] || fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name}: protocol ${parsed.protocol} is not one of ${protocols.join(', ')}`);
      }
    } catch {
      problems.push(`${name}: not a URL`);
    }
    return raw;
  };

  const embeddedPostgresPort = int('PI_EMBEDDED_PG_PORT', 5433, 1, 65535);
  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port: int('PORT', 3000, 0, 65535),
    databaseUrl: url(
      'DATABASE_URL',
      `postgres://${EMBEDDED_PG_USER}:${EMBEDDED_PG_PASSWORD}@127.0.0.1:${embeddedPostgresPort}/pi`,
      ['postgres:', 'postgresql:'],
    ),
    kafkaBrokers: (env.KAFKA_BROKERS || '127.0.0.1:9092').split(',').map((b) => b.trim()),
    kafkaClientId: env.KAFKA_CLIENT_ID || 'product-intelligence',
    schemaRegistryUrl: url('SCHEMA_REGISTRY_URL', 'http://127.0.0.1:8081/apis/ccompat/v7', ['http:', 'https:']),
    topicPartitions: int('KAFKA_TOPIC_PARTITIONS', 3, 1, 1024),
    sinkConcurrency: int('PI_SINK_CONCURRENCY', 2, 1, 64),
    fetchMinBytes: int('PI_FETCH_MIN_BYTES', 256 * 1024, 1, 64 * 1024 * 1024),
    fetchMaxWaitMs: int('PI_FETCH_MAX_WAIT_MS', 100, 1, 10_000),
    fetchMaxBytes: int('PI_FETCH_MAX_BYTES', 4 * 1024 * 1024, 64 * 1024, 16 * 1024 * 1024),
    topicReplicationFactor: int('KAFKA_REPLICATION_FACTOR', 1, 1, 16),
    logLevel: env.LOG_LEVEL || 'info',
    kafkaLogLevel: (env.PI_KAFKA_LOG_LEVEL || 'warn') as KafkaLogLevel,
    embeddedPostgresPort,
    smtpUrl: url('SMTP_URL', 'smtp://127.0.0.1:2525', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || 'Product Intelligence <reports@localhost>',
    duckdbDir: env.DUCKDB_DIR || 'data/duckdb',
    parquetDir: env.PARQUET_DIR || 'data/parquet',
    webhookCaFile: env.WEBHOOK_CA_FILE || undefined,
    webhookAllowHosts: (env.WEBHOOK_ALLOW_HOSTS || '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    warehouseAllowHosts: (env.WAREHOUSE_ALLOW_HOSTS || '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    webhookRetryBaseMs: int('PI_WEBHOOK_RETRY_BASE_MS', 30_000, 10, 86_400_000),
    // Longer than the 5 s request timeout, so a live sender's claim never lapses mid-request.
    webhookLeaseMs: int('PI_WEBHOOK_LEASE_MS', 30_000, 6_000, 3_600_000),
    webhookConcurrency: int('PI_WEBHOOK_CONCURRENCY', 32, 1, 1024),
    webhookProjectConcurrency: int('PI_WEBHOOK_PROJECT_CONCURRENCY', 4, 1, 1024),
    warehouseConcurrency: int('PI_WAREHOUSE_CONCURRENCY', 3, 1, 64),
    warehouseTimeoutMs: int('PI_WAREHOUSE_TIMEOUT_MS', 60_000, 1000, 3_600_000),
    warehouseRunDeadlineMs: int('PI_WAREHOUSE_RUN_DEADLINE_MS', 3_600_000, 1000, 86_400_000),
    pollIntervalMs: int('PI_POLL_INTERVAL_MS', 5000, 100, 3_600_000),
    backfillShare: int('PI_BACKFILL_SHARE_PERCENT', 50, 1, 100) / 100,
    workerShare: int('PI_WORKER_SHARE_PERCENT', 20, 1, 100) / 100,
    nice: {
      api: int('PI_API_NICE', 0, 0, 19),
      processors: int('PI_PROCESSORS_NICE', 5, 0, 19),
      workers: int('PI_WORKERS_NICE', 10, 0, 19),
    },
    workflowWaitMs: int('PI_WORKFLOW_WAIT_MS', 5000, 0, 30_000),
    ingestDeadlineMs: int('PI_INGEST_DEADLINE_MS', 5000, 100, 10_000),
    pgStatementTimeoutMs: int('PI_PG_STATEMENT_TIMEOUT_MS', 15_000, 100, 3_600_000),
    pgAcquireTimeoutMs: int('PI_PG_ACQUIRE_TIMEOUT_MS', 5000, 100, 60_000),
    pgIdleInTransactionMs: int('PI_PG_IDLE_IN_TRANSACTION_MS', 30_000, 100, 3_600_000),
    exportConnections: int('PI_EXPORT_CONNECTIONS', 4, 1, 64),
    exportProjectConnections: int('PI_EXPORT_PROJECT_CONNECTIONS', EXPORT_PROJECT_CONNECTIONS, 1, 64),
    exportIdleMs: int('PI_EXPORT_IDLE_MS', 30_000, 100, 3_600_000),
    authFailuresPerMinute: int('PI_AUTH_FAILURES_PER_MINUTE', 30, 1, 100_000),
    trustedProxies: trustedProxies(env.PI_TRUSTED_PROXIES ?? '', problems),
    streamUnauthenticatedMax: int('PI_STREAM_UNAUTHENTICATED_MAX', 200, 1, 100_000),
    secretKeys: secretKeys(env, problems),
    warehouseCaFile: env.WAREHOUSE_CA_FILE || undefined,
    operatorToken: env.PI_OPERATOR_TOKEN || undefined,
  };
  if (config.operatorToken !== undefined && config.operatorToken.length < OPERATOR_TOKEN_MIN_LENGTH) {
    problems.push(`PI_OPERATOR_TOKEN: at least ${OPERATOR_TOKEN_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`);
  }
  for (const broker of config.kafkaBrokers) {
    if (!/^[^:\s]+:\d+$/.test(broker)) problems.push(`KAFKA_BROKERS: "${broker}" is not host:port`);
  }
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    problems.push(`LOG_LEVEL=${config.logLevel}: expected fatal|error|warn|info|debug|trace|silent`);
  }
  if (!(KAFKA_LOG_LEVELS as readonly string[]).includes(config.kafkaLogLevel)) {
    problems.push(`PI_KAFKA_LOG_LEVEL=${config.kafkaLogLevel}: expected ${KAFKA_LOG_LEVELS.join('|')}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** PI_TRUSTED_PROXIES: empty (none), a hop count (`1`), or addresses and CIDR ranges (`10.0.0.0/8, ::1`). */
function trustedProxies(raw: string, problems: string[]): TrustedProxies {
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 16) problems.push(`PI_TRUSTED_PROXIES=${raw}: a hop count is at most 16`);
    return { hops: Math.min(hops, 16) };
  }
  const addresses = text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  for (const address of addresses) {
    const [ip, bits, extra] = address.split('/');
    const family = net.isIP(ip ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits);
    if (family === 0 || badBits || extra !== undefined) {
      problems.push(`PI_TRUSTED_PROXIES: "${address}" is not an IP address, a CIDR range or a hop count`);
    }
  }
  return { addresses };
}

function secretKeys(env: NodeJS.ProcessEnv, problems: string[]): SecretKey[] {
  let text = env.PI_SECRET_KEYS ?? '';
  let source = 'PI_SECRET_KEYS';
  if (text === '') {
    const file = env.PI_SECRET_KEYS_FILE || localSecretKeysFile(env);
    // Without keys the service runs, and whatever needs a secret says so when it does.
    if (!fs.existsSync(file)) return [];
    text = fs.readFileSync(file, 'utf8').trim();
    source = file;
  }
  const keys = parseSecretKeys(text);
  if (typeof keys === 'string') problems.push(`${source}: ${keys}`);
  return typeof keys === 'string' ? [] : keys;
}

/** The same server as `databaseUrl`, another database on it. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
}
