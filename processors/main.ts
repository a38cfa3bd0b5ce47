import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { type Services, connectServices, prepare } from '../lib/services.js';
import { analyticsSink } from './analytics/sink.js';
import { rawSink } from './raw-sink/sink.js';
import { type RunningSink, runPostgresSink } from './runtime/postgres-sink.js';

export const PROCESSORS = { 'raw-sink': rawSink, analytics: analyticsSink } as const;
export type ProcessorName = keyof typeof PROCESSORS;

/** Starts the chosen processors (all by default) in this process. */
export async function startProcessors(
  services: Services,
  names: ProcessorName[] = Object.keys(PROCESSORS) as ProcessorName[],
): Promise<RunningSink[]> {
  const running: RunningSink[] = [];
  for (const name of names)
    running.push(await runPostgresSink(PROCESSORS[name] as Parameters<typeof runPostgresSink>[0], services));
  return running;
}

export function parseOnly(argv: string[]): ProcessorName[] | undefined {
  const at = argv.indexOf('--only');
  if (at < 0) return undefined;
  const names = (argv[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((n) => !(n in PROCESSORS));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError([`--only: expected a comma-separated subset of ${Object.keys(PROCESSORS).join(', ')}`]);
  }
  return names as ProcessorName[];
}

async function main(): Promise<void> {
  const config = loadConfig();
  const only = parseOnly(process.argv.slice(2));
  const log = createLogger(config.logLevel, { service: 'processors' });
  const services = connectServices(config, log);
  await prepare(services);
  const running = await startProcessors(services, only);
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
