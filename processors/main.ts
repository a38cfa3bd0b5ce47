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

/**
 * What a process may run: the sinks by name (`analytics` with the sessionize step before it), or
 * the sessionize step and the analytics sink apart (`sessionize`, `analytics-sink`), as `npm start`
 * runs them: in one process the analytics sink's work on each chain waited behind the other two
 * steps' work on each event (docs/performance.md).
 */
export const STEP_NAMES = [...PROCESSOR_NAMES, 'sessionize', 'analytics-sink'] as const;
export type StepName = (typeof STEP_NAMES)[number];

/** Starts the chosen steps (all by default) in this process. */
export async function startProcessors(services: Services, names: StepName[] = PROCESSOR_NAMES): Promise<RunningSink[]> {
  const chosen = new Set(names);
  const runs = {
    raw: chosen.has('raw-sink'),
    sessionize: chosen.has('analytics') || chosen.has('sessionize'),
    analytics: chosen.has('analytics') || chosen.has('analytics-sink'),
  };
  // The raw sink and sessionize open the same events, the analytics sink the chains sessionize
  // seals: values one step opens or seals are kept for the other when both run here.
  if (runs.sessionize && (runs.raw || runs.analytics)) keepOpenedValues(undefined, runs.analytics);
  const running: RunningSink[] = [];
  try {
    if (runs.raw) running.push(await runPostgresSink(rawSink, services));
    if (runs.analytics) running.push(await runPostgresSink(analyticsSink, services));
    if (runs.sessionize) running.push(await runSessionizer(services));
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
      usage: 'npm run processors -- [--only raw-sink,sessionize,analytics-sink]',
      summary:
        'The processors role: Kafka steps raw-sink and analytics (= sessionize, then analytics-sink). Run more copies to share the partitions.',
      options: { only: { type: 'string', arg: 'names', help: `a subset of ${STEP_NAMES.join(', ')}` } },
    },
    async ({ values }) => {
      const only = parseOnly(values.only, STEP_NAMES);
      await runRole('processors', (services) => startProcessors(services, only), { parts: only });
    },
  );
}
