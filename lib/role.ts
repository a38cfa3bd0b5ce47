import os from 'node:os';
import { type Config, type Role, loadConfig } from './config.js';
import type { PoolLimits } from './db.js';
import { createLogger } from './log.js';
import { watchEventLoop } from './loop-watch.js';
import { type Services, connectServices, prepare } from './services.js';

/**
 * Node options of every role's process (package.json's role scripts, npm start's supervisor): a
 * young generation of 64 MB semi-spaces, where V8's default of 16 MB spent 16–22 % of the API's
 * and the processors' time collecting garbage (docs/performance.md).
 */
export const ROLE_NODE_OPTIONS = ['--max-semi-space-size=64'];

export interface Stoppable {
  stop(): Promise<void>;
}

export interface RoleOptions {
  /** the deadlines of the role's Postgres pool */
  limits?: (config: Config) => PoolLimits;
  /** the parts this process runs (`--only`), when not all */
  parts?: readonly string[];
}

/**
 * Runs one role of the service (api, processors, workers) in this process until SIGINT or
 * SIGTERM: connects, prepares (migrations, topics, schemas; idempotent), starts, and on the
 * signal stops what it started and closes the connections before exiting. The process first takes
 * the role's nice value. Its Postgres sessions are named after the role and its parts
 * (`pi-processors analytics-sink`), so pg_stat_activity tells whose statement a backend runs.
 */
export async function runRole(
  role: Role,
  start: (services: Services) => Promise<Stoppable[]>,
  { limits = () => ({}), parts }: RoleOptions = {},
): Promise<void> {
  const config = loadConfig();
  yieldCpu(config.nice[role]);
  const log = createLogger(config.logLevel, { service: role });
  watchEventLoop(log);
  const applicationName = [`pi-${role}`, ...(parts?.length ? [parts.join(',')] : [])].join(' ');
  const services = connectServices(config, log, 10, { ...limits(config), applicationName });
  await prepare(services);
  const running = await start(services);
  log.info({ role }, 'started');
  const stop = async (signal: string) => {
    log.info({ signal }, 'stopping');
    await Promise.all(running.map((r) => r.stop()));
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', (s) => void stop(s));
  process.once('SIGTERM', (s) => void stop(s));
  // Started by a supervisor (npm start): its death closes the channel, and the role stops with it.
  if (process.send) process.once('disconnect', () => void stop('supervisor gone'));
}

/**
 * Raises this process's nice value (never lowers it). On Linux it is the calling thread's, i.e.
 * the JavaScript one's, and that of the threads it starts afterwards.
 */
function yieldCpu(nice: number): void {
  if (nice > os.getPriority()) os.setPriority(nice);
}
