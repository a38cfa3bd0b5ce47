import { pathToFileURL } from 'node:url';
import { parseOnly, runCli } from '../lib/cli.js';
import { runRole } from '../lib/role.js';
import type { Services } from '../lib/services.js';
import { keepOpenedValues } from '../domain/sealed-user.js';
import { analyticsSink } from './analytics-sink/runner.js';
import { rawSink } from './raw-sink/runner.js';
import { type RunningSink, runPostgresSink } from './runtime/postgres-sink.js';
import { runSessionizer } from './sessionize/runner.js';

/**
 * The processors role: the Kafka steps, in flow order. Kafka → Postgres sinks (scripts/replay.ts
 * rebuilds their tables); `analytics` runs behind the sessionize Kafka → Kafka step, which always
 * starts with it. More copies of this process share the partitions (consumer groups).
 */
export const PROCESSORS = { 'raw-sink': rawSink, analytics: analyticsSink } as const;
export type ProcessorName = keyof typeof PROCESSORS;
export const PROCESSOR_NAMES = Object.keys(PROCESSORS) as ProcessorName[];

export const isSink = (name: string): name is ProcessorName => name in PROCESSORS;

/** Starts the chosen processors (all by default) in this process. */
export async function startProcessors(
  services: Services,
  names: ProcessorName[] = PROCESSOR_NAMES,
): Promise<RunningSink[]> {
  const running: RunningSink[] = [];
  // The raw sink and sessionize open the same events, the analytics sink the chains sessionize seals.
  keepOpenedValues();
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runCli(
    {
      usage: 'npm run processors -- [--only raw-sink,analytics]',
      summary:
        'The processors role: Kafka steps raw-sink and analytics (with the sessionize step before it). Run more copies to share the partitions.',
      options: { only: { type: 'string', arg: 'names', help: `a subset of ${PROCESSOR_NAMES.join(', ')}` } },
    },
    async ({ values }) => {
      const only = parseOnly(values.only, PROCESSOR_NAMES);
      await runRole('processors', (services) => startProcessors(services, only));
    },
  );
}
