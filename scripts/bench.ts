/**
 * `npm run bench -- <mode> [options]`: benchmarks, never tests (docs/performance.md records runs).
 *   live        the shipped shape: `npm start` (every role and worker) over a stored history; a
 *               burst, then a paced load with probe events; the raw limits and a replay in the same run
 *   parts       each part alone (ingest, raw-sink, analytics, replay, GET latency): a diagnosis
 *   export      the raw-event export's speed and memory
 *   reads       DESIGN §8: every analytics GET's latency over 10M events of 100k users loaded through npm start
 *   raw-limits  Kafka's own producer/consumer perf tools and Postgres COPY on this machine
 *   ingest      npm start (every role): a burst of batches, single events at a rate, Kafka's own producer
 *   ingest-path the API's path alone, JSON body → Kafka record bytes, CPU per event by stage (a diagnosis)
 *   workers     one pass of each Postgres-driven worker over a stored history after a trickle
 */
import { runCli, UsageError } from '../lib/cli.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { connectServices, prepare } from '../lib/services.js';
import { ingestBench } from './bench/ingest.js';
import { ingestPathBench } from './bench/ingest-path.js';
import { liveBench } from './bench/live.js';
import { partsBench } from './bench/parts.js';
import { rawLimits } from './bench/raw-limits.js';
import { readsBench } from './bench/reads.js';
import { workersBench } from './bench/workers.js';
import { stackDown, stackUp } from './local-stack/stack.js';

const whole = (name: string, value: string | undefined, fallback: number, min = 0): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name}: expected a whole number ≥ ${min}`);
  return n;
};

await runCli(
  {
    usage: 'npm run bench -- live|reads|parts|export|raw-limits|ingest|ingest-path|workers [options]',
    summary: 'Benchmarks (never tests): see the header of scripts/bench.ts and docs/performance.md.',
    positionals: 'mode',
    options: {
      history: { type: 'string', arg: 'n', help: 'live: events stored before the load (default 1000000)' },
      rate: {
        type: 'string',
        arg: 'n',
        help: 'live: events/s offered during the paced phase (default 5000); ingest: single events/s (1000)',
      },
      seconds: {
        type: 'string',
        arg: 's',
        help: 'live: length of the paced phase (default 300); ingest: of the single events (20)',
      },
      'burst-seconds': { type: 'string', arg: 's', help: 'live, ingest: length of the burst (default 30; ingest 20)' },
      connections: { type: 'string', arg: 'n', help: 'live, ingest: parallel requests of the burst (default 8)' },
      'concurrent-users': {
        type: 'string',
        arg: 'n',
        help: "live: users sending at once, one event each in turn (default 10000; 0: each user's events together)",
      },
      'raw-limits': {
        type: 'string',
        arg: 'n',
        help: 'records for the raw limits (live, ingest default 1000000; 0 skips)',
      },
      'no-replay': { type: 'boolean', help: 'live: skip the replay' },
      fresh: { type: 'boolean', help: 'live: drop the bench database and topics first (history loaded again)' },
      perf: { type: 'boolean', help: "live: profile each phase's CPU, the whole machine, with perf (a diagnosis)" },
      api: { type: 'string', arg: 'n', help: 'live: API processes (npm start --api)' },
      processors: { type: 'string', arg: 'n', help: 'live: processor processes (npm start --processors)' },
      analytics: { type: 'string', arg: 'n', help: 'live: analytics-sink processes (npm start --analytics)' },
      out: { type: 'string', arg: 'file', help: 'live: JSON report (default .bench/live.json)' },
      plot: { type: 'string', arg: 'file', help: 'live: PNG plot (default .bench/live.png)' },
      events: {
        type: 'string',
        arg: 'n',
        help: 'parts: events to load (default 100000); export: rows; reads: 10000000',
      },
      users: { type: 'string', arg: 'n', help: 'reads: users (default 100000); workers: 2000' },
      requests: { type: 'string', arg: 'n', help: 'reads: requests per GET (default 200)' },
      sessions: { type: 'string', arg: 'n', help: 'parts: sessions per simulated user (default 4); workers: 10' },
      trickle: { type: 'string', arg: 'n', help: 'workers: events posted before each round of passes (default 100)' },
      rounds: { type: 'string', arg: 'n', help: 'workers: rounds of passes (default 3)' },
      project: { type: 'string', arg: 'name', help: 'workers: project of the history (default bench-workers)' },
      baseline: { type: 'string', arg: 'dir', help: "workers: also time another checkout's workers" },
      concurrency: { type: 'string', arg: 'n', help: 'parts: parallel ingest requests (default 4)' },
      batch: { type: 'string', arg: 'n', help: 'ingest, ingest-path: events per request body (default 500)' },
    },
  },
  async ({ values, positionals }) => {
    const mode = positionals[0];
    let report: unknown;
    if (mode === 'live') {
      report = await liveBench({
        history: whole('history', values.history, 1_000_000),
        rate: whole('rate', values.rate, 5000, 1),
        seconds: whole('seconds', values.seconds, 300, 1),
        burstSeconds: whole('burst-seconds', values['burst-seconds'], 30, 1),
        connections: whole('connections', values.connections, 8, 1),
        concurrentUsers: whole('concurrent-users', values['concurrent-users'], 10_000),
        rawLimitRecords: whole('raw-limits', values['raw-limits'], 1_000_000),
        replay: !values['no-replay'],
        database: 'pi_bench',
        namespace: 'bench',
        port: 3900,
        fresh: values.fresh ?? false,
        out: values.out ?? '.bench/live.json',
        plot: values.plot ?? '.bench/live.png',
        copies: { api: values.api, processors: values.processors, analytics: values.analytics },
        perf: values.perf ?? false,
      });
    } else if (mode === 'reads') {
      report = await readsBench({
        events: whole('events', values.events, 10_000_000, 1),
        users: whole('users', values.users, 100_000, 1),
        requests: whole('requests', values.requests, 200, 1),
        database: 'pi_bench_reads',
        namespace: 'benchreads',
        port: 3901,
        out: values.out ?? '.bench/reads.json',
      });
    } else if (mode === 'parts' || mode === 'export') {
      report = await partsBench({
        events: whole('events', values.events, 100_000, 1),
        sessions: whole('sessions', values.sessions, 4, 1),
        concurrency: whole('concurrency', values.concurrency, 4, 1),
        exportRows: mode === 'export' ? whole('events', values.events, 1_000_000, 1) : undefined,
      });
    } else if (mode === 'raw-limits') {
      const config = loadConfig();
      const started = await stackUp(config, () => undefined);
      const services = connectServices(config, createLogger('error'), 2);
      await prepare(services);
      report = await rawLimits(services, whole('raw-limits', values['raw-limits'], 1_000_000, 1), 'bench');
      await services.close();
      await stackDown(config, () => undefined, started);
    } else if (mode === 'ingest') {
      report = await ingestBench({
        burstSeconds: whole('burst-seconds', values['burst-seconds'], 20, 1),
        connections: whole('connections', values.connections, 8, 1),
        batch: whole('batch', values.batch, 500, 1),
        singleRate: whole('rate', values.rate, 1000, 1),
        singleSeconds: whole('seconds', values.seconds, 20, 1),
        rawLimitRecords: whole('raw-limits', values['raw-limits'], 1_000_000),
        database: 'pi_bench_ingest',
        namespace: 'benchingest',
        port: 3902,
      });
    } else if (mode === 'ingest-path') {
      report = await ingestPathBench({ batch: whole('batch', values.batch, 500, 1), seconds: 2 });
    } else if (mode === 'workers') {
      report = await workersBench({
        users: whole('users', values.users, 2000, 1),
        sessions: whole('sessions', values.sessions, 10, 1),
        trickle: whole('trickle', values.trickle, 100, 1),
        rounds: whole('rounds', values.rounds, 3, 1),
        project: values.project ?? 'bench-workers',
        baseline: values.baseline,
      });
    } else
      throw new UsageError(
        `mode: expected live, reads, parts, export, raw-limits, ingest, ingest-path or workers, got ${mode ?? 'nothing'}`,
      );
    console.log(JSON.stringify(report, null, 2));
  },
);
