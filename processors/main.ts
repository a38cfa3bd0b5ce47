import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { type Services, connectServices, prepare } from '../lib/services.js';
import { analyticsSink } from './analytics/sink.js';
import { rawSink } from './raw-sink/sink.js';
import { runSessionizer } from './sessionize/processor.js';
import { startBehaviouralCohortWorker } from './cohorts/behavioural.js';
import { startCohortMembership } from './cohorts/membership.js';
import { startJobWorker } from './jobs/worker.js';
import { startWorkflowWorker } from './paths/worker.js';
import { startReportWorker } from './reports/worker.js';
import { type RunningSink, runPostgresSink } from './runtime/postgres-sink.js';
import { startWarehouseExportWorker } from './warehouse-export/worker.js';
import { startWebhookSender } from './webhooks/sender.js';

/**
 * Kafka → Postgres steps (scripts/replay rebuilds their tables). `analytics` runs behind the
 * sessionize Kafka → Kafka step, which always starts with it.
 */
export const PROCESSORS = { 'raw-sink': rawSink, analytics: analyticsSink } as const;
export type ProcessorName = keyof typeof PROCESSORS;

/** Postgres-driven workers: they act on rows the sinks and the API wrote. */
export const WORKERS = {
  'webhook-sender': startWebhookSender,
  'cohort-membership': startCohortMembership,
  reports: (services: Services) => startReportWorker(services),
  jobs: startJobWorker,
  workflows: startWorkflowWorker,
  'behavioural-cohorts': startBehaviouralCohortWorker,
  'warehouse-export': startWarehouseExportWorker,
} as const;
export type WorkerName = keyof typeof WORKERS;

export async function startWorkers(
  services: Services,
  names: WorkerName[] = Object.keys(WORKERS) as WorkerName[],
): Promise<RunningSink[]> {
  return Promise.all(names.map((name) => WORKERS[name](services)));
}

/** Starts the chosen processors (all by default) in this process. */
export async function startProcessors(
  services: Services,
  names: ProcessorName[] = Object.keys(PROCESSORS) as ProcessorName[],
): Promise<RunningSink[]> {
  const running: RunningSink[] = [];
  try {
    for (const name of names) {
      running.push(await runPostgresSink(PROCESSORS[name] as Parameters<typeof runPostgresSink>[0], services));
      if (name === 'analytics') running.push(await runSessionizer(services));
    }
  } catch (err) {
    // A sink that refuses to start (stored offsets outside its topic) leaves nothing running.
    await Promise.all(running.map((r) => r.stop()));
    throw err;
  }
  return running;
}

/** `--only a,b`: the processors and workers to run; undefined when every one should. */
export function parseOnly(argv: string[]): (ProcessorName | WorkerName)[] | undefined {
  const at = argv.indexOf('--only');
  if (at < 0) return undefined;
  const names = (argv[at + 1] ?? '').split(',').filter(Boolean);
  const known = [...Object.keys(PROCESSORS), ...Object.keys(WORKERS)];
  const unknown = names.filter((n) => !known.includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError([`--only: expected a comma-separated subset of ${known.join(', ')}`]);
  }
  return names as (ProcessorName | WorkerName)[];
}

export const isSink = (name: string): name is ProcessorName => name in PROCESSORS;
const isWorker = (name: string): name is WorkerName => name in WORKERS;

async function main(): Promise<void> {
  const config = loadConfig();
  const only = parseOnly(process.argv.slice(2));
  const log = createLogger(config.logLevel, { service: 'processors' });
  const services = connectServices(config, log);
  await prepare(services);
  const running = [
    ...(await startProcessors(services, only?.filter(isSink))),
    ...(await startWorkers(services, only?.filter(isWorker))),
  ];
  const stop = async (signal: string) => {
    log.info({ signal }, 'stopping');
    await Promise.all(running.map((r) => r.stop()));
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', (s) => void stop(s));
  process.once('SIGTERM', (s) => void stop(s));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
