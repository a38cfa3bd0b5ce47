import fs from 'node:fs';
import { type Config, databaseName, loadConfig, localSecretKeysFile, withDatabase } from '../../lib/config.js';
import { newSecretKey } from '../../lib/secret-box.js';
import { kafkaAnswers, kafkaDaemon, startKafka } from './kafka.js';
import { stackDir } from './paths.js';
import { EmbeddedPostgres, REGISTRY_DATABASE, canConnect, ensureDatabase } from './postgres.js';
import { type Daemon, readPid, stopDaemon, waitUntil } from './process.js';
import { registryAnswers, registryDaemon, startRegistry } from './registry.js';

type Log = (message: string) => void;

export interface ServiceStatus {
  name: 'postgres' | 'kafka' | 'registry';
  /** ours = started by scripts/stack (and stopped by `down`); external = someone else's. */
  state: 'ours' | 'external' | 'down';
  address: string;
}

const isLocal = (host: string) => ['127.0.0.1', 'localhost', '::1'].includes(host);

/** The embedded server is only started when DATABASE_URL is unset; once running it is ours to stop. */
const embedded = (config: Config, log: Log) => new EmbeddedPostgres(config.embeddedPostgresPort, log);

export async function stackStatus(config: Config = loadConfig()): Promise<ServiceStatus[]> {
  const pg = embedded(config, () => undefined);
  const broker = config.kafkaBrokers[0]!;
  const pgUp = await canConnect(withDatabase(config.databaseUrl, 'postgres'));
  const kafkaUp = await kafkaAnswers(broker).catch(() => false);
  const registryUp = await registryAnswers(config.schemaRegistryUrl).catch(() => false);
  const pgAddress = new URL(config.databaseUrl);
  return [
    {
      name: 'postgres',
      state: !pgUp ? 'down' : pg.running() ? 'ours' : 'external',
      address: `${pgAddress.hostname}:${pgAddress.port || 5432}`,
    },
    { name: 'kafka', state: !kafkaUp ? 'down' : readPid(kafkaDaemon) ? 'ours' : 'external', address: broker },
    {
      name: 'registry',
      state: !registryUp ? 'down' : readPid(registryDaemon) ? 'ours' : 'external',
      address: config.schemaRegistryUrl,
    },
  ];
}

type Service = ServiceStatus['name'];

/** Each `up*` returns true when it started the service, false when one already answered. */
async function upPostgres(config: Config, log: Log): Promise<boolean> {
  const server = withDatabase(config.databaseUrl, 'postgres');
  let started = false;
  if (!(await canConnect(server))) {
    if (process.env.DATABASE_URL) {
      throw new Error(`DATABASE_URL is set but its server does not answer: ${new URL(config.databaseUrl).host}`);
    }
    await embedded(config, log).start();
    started = true;
  }
  await ensureDatabase(server, databaseName(config.databaseUrl));
  await ensureDatabase(server, REGISTRY_DATABASE);
  return started;
}

/**
 * A daemon of ours that runs but does not answer (the registry while its Postgres restarts, Kafka
 * still starting) is waited for, not started a second time: the second would fail on the taken
 * port, and its pid file would hide the first from `down` (found by npm run faults).
 */
async function ours(daemon: Daemon, probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  if (readPid(daemon) === undefined) return false;
  await waitUntil(daemon.name, probe, { timeoutMs, daemon });
  return true;
}

async function upKafka(config: Config, log: Log): Promise<boolean> {
  const broker = config.kafkaBrokers[0]!;
  if (await kafkaAnswers(broker).catch(() => false)) return false;
  if (await ours(kafkaDaemon, () => kafkaAnswers(broker), 120_000)) return false;
  const [host, port] = broker.split(':') as [string, string];
  if (!isLocal(host)) throw new Error(`Kafka at ${broker} does not answer and is not local`);
  await startKafka(Number(port), Number(process.env.PI_KAFKA_CONTROLLER_PORT ?? 9093), log);
  return true;
}

async function upRegistry(config: Config, log: Log): Promise<boolean> {
  const answers = () => registryAnswers(config.schemaRegistryUrl);
  if (await answers().catch(() => false)) return false;
  if (await ours(registryDaemon, answers, 180_000)) return false;
  const url = new URL(config.schemaRegistryUrl);
  if (!isLocal(url.hostname)) throw new Error(`schema registry at ${url.host} does not answer and is not local`);
  const db = new URL(config.databaseUrl);
  await startRegistry(
    {
      port: Number(url.port || 80),
      managementPort: Number(process.env.PI_REGISTRY_MANAGEMENT_PORT ?? 9001),
      db: {
        host: db.hostname,
        port: Number(db.port || 5432),
        database: REGISTRY_DATABASE,
        user: decodeURIComponent(db.username || 'postgres'),
        password: decodeURIComponent(db.password),
      },
    },
    log,
  );
  return true;
}

/**
 * Starts what is not already running (idempotent), waits until every part is healthy and
 * returns the services this call started.
 */
export async function stackUp(config: Config = loadConfig(), log: Log = console.error): Promise<Service[]> {
  fs.mkdirSync(stackDir, { recursive: true });
  ensureSecretKeys(log);
  // Kafka does not need Postgres, the registry does: start them side by side.
  const [kafka, [postgres, registry]] = await Promise.all([
    upKafka(config, log),
    upPostgres(config, log).then(async (pg) => [pg, await upRegistry(config, log)] as const),
  ]);
  const started: Service[] = [];
  if (postgres) started.push('postgres');
  if (kafka) started.push('kafka');
  if (registry) started.push('registry');
  return started;
}

/**
 * The local stack's key for secrets at rest (lib/secret-box.ts), generated once and kept in the
 * git-ignored .stack folder, which every process of this checkout reads when PI_SECRET_KEYS is unset.
 */
function ensureSecretKeys(log: Log): void {
  const file = localSecretKeysFile();
  try {
    // 'wx': two processes starting at once keep whichever key was written first.
    fs.writeFileSync(file, `${newSecretKey('local1')}\n`, { mode: 0o600, flag: 'wx' });
    log(`secret key generated in ${file}`);
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
}

/** Stops what scripts/stack started (all of it, or just `only`); external services are left alone. */
export async function stackDown(
  config: Config = loadConfig(),
  log: Log = console.error,
  only: Service[] = ['registry', 'kafka', 'postgres'],
): Promise<void> {
  if (only.includes('registry') && (await stopDaemon(registryDaemon))) log('registry stopped');
  if (only.includes('kafka') && (await stopDaemon(kafkaDaemon))) log('kafka stopped');
  if (only.includes('postgres') && (await embedded(config, log).stop())) log('embedded postgres stopped');
}
