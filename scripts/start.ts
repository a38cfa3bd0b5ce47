/**
 * `npm start`: the whole service on one machine — the local stack (started when not running),
 * migrations, topics and schemas, then one process per role (api, processors, analytics, workers;
 * more where cores allow), each restarted with backoff when it crashes, their logs as one readable
 * log, and a demo project with an admin key. Ctrl-C stops the roles and what this run started.
 */
import fs from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { consoleOwnerLink } from '../api/console/accounts.js';
import { runCli } from '../lib/cli.js';
import { databaseName, loadConfig } from '../lib/config.js';
import type { Pool } from '../lib/db.js';
import { connectServices, prepare } from '../lib/services.js';
import { type Scope, createKey, ensureProject, resolveKey } from '../store/api-keys.js';
import { stackPath } from './local-stack/paths.js';
import { stackDown, stackUp } from './local-stack/stack.js';
import { sendDemo } from './simulate.js';
import { Supervisor } from './start/supervisor.js';

const DEMO_PROJECT = 'demo';

/** Pages that may send the demo's tracker events: a local dev server on port 8080. */
const DEMO_PAGE_ORIGINS = ['http://localhost:8080', 'http://127.0.0.1:8080'];

const DEMO_KEYS = {
  admin: { file: 'demo-admin-key', scopes: ['admin'], name: 'demo admin key (npm start)', origins: null },
  browser: {
    file: 'demo-browser-key',
    scopes: ['events:write'],
    name: 'demo browser key (npm start)',
    origins: DEMO_PAGE_ORIGINS,
  },
} as const satisfies Record<string, { file: string; scopes: Scope[]; name: string; origins: string[] | null }>;

async function demoKey(db: Pool, database: string, kind: keyof typeof DEMO_KEYS): Promise<string> {
  // The plaintext key is kept only in the git-ignored .stack folder, so restarts reuse it.
  const { file: name, scopes, name: label, origins } = DEMO_KEYS[kind];
  const file = stackPath(database === 'pi' ? name : `${name}-${database}`);
  const saved = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  if (saved && (await resolveKey(db, saved))) return saved;
  const projectId = await ensureProject(db, DEMO_PROJECT);
  const { key } = await createKey(db, projectId, [...scopes], label, origins && [...origins]);
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/** Waits until the API answers its health check (any answer: `degraded` still serves). */
async function apiAnswers(healthUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(healthUrl).then(
      (r) => r.status < 500 || r.status === 503,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the API did not answer ${healthUrl} within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

const count = (value: string | undefined, fallback: number, name: string, least = 1): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < least || n > 64) {
    throw new Error(`--${name}: expected a whole number from ${least} to 64`);
  }
  return n;
};

async function main(options: {
  simulate?: boolean;
  api?: string;
  processors?: string;
  analytics?: string;
  workers?: string;
}) {
  const cores = os.availableParallelism();
  const processors = count(options.processors, Math.max(1, Math.floor(cores / 2)), 'processors');
  const copies = {
    api: count(options.api, Math.max(1, Math.floor(cores / 2)), 'api'),
    processors,
    analytics: count(options.analytics, processors, 'analytics', 0),
    workers: count(options.workers, 1, 'workers'),
  };
  const config = loadConfig();
  const supervisor = new Supervisor();
  const log = supervisor.logger('start', config.logLevel);
  const started = await stackUp(config, (m) => log.info(m));
  const services = connectServices(config, log, 2);
  await prepare(services);
  const key = await demoKey(services.db, databaseName(config.databaseUrl), 'admin');
  const browserKey = await demoKey(services.db, databaseName(config.databaseUrl), 'browser');

  supervisor.start({ name: 'api', entry: 'api/main.ts', args: ['--processes', String(copies.api)] });
  // The analytics sink runs apart from the raw sink and sessionize (unless --analytics 0): in one
  // process its work on each chain waited behind theirs on each event, and its lag grew all through a
  // busy load; apart, it takes CPU the API had during a burst (docs/performance.md).
  const steps = copies.analytics > 0 ? 'raw-sink,sessionize' : 'raw-sink,analytics';
  for (let i = 1; i <= copies.processors; i++) {
    const name = copies.processors > 1 ? `processors#${i}` : 'processors';
    supervisor.start({ name, entry: 'processors/main.ts', args: ['--only', steps] });
  }
  for (let i = 1; i <= copies.analytics; i++) {
    const name = copies.analytics > 1 ? `analytics#${i}` : 'analytics';
    supervisor.start({ name, entry: 'processors/main.ts', args: ['--only', 'analytics-sink'] });
  }
  for (let i = 1; i <= copies.workers; i++) {
    supervisor.start({ name: copies.workers > 1 ? `workers#${i}` : 'workers', entry: 'workers/main.ts' });
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log.info('stopping');
    await supervisor.stop();
    await services.close();
    await stackDown(config, (m) => log.info(m), started);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const baseUrl = `http://${config.host}:${config.port}/v1`;
  await apiAnswers(`${baseUrl}/health`, 120_000);
  const owner = await consoleOwnerLink(services.db, await ensureProject(services.db, DEMO_PROJECT), baseUrl);
  console.log(
    [
      '',
      `Product intelligence is running (api ×${copies.api}, processors ×${copies.processors}, analytics ×${copies.analytics}, workers ×${copies.workers}).`,
      `  base URL    ${baseUrl}`,
      `  stream URL  ws://${config.host}:${config.port}/v1/stream`,
      `  admin key   ${key}   (project "${DEMO_PROJECT}")`,
      `  console     ${owner.consoleUrl}`,
      `  sign in     ${owner.link}`,
      `              (one-time link for ${owner.email}, valid 24 h; npm run user:invite makes more)`,
      '',
      `  tracker     <script src="http://${config.host}:${config.port}/tracker.js" data-api-key="${browserKey}"></script>`,
      `              (a browser key for pages served from ${DEMO_PAGE_ORIGINS.join(' or ')}; docs/clients.md)`,
      '',
      `  try: curl -s -X POST ${baseUrl}/events -H "Authorization: Bearer ${key}" \\`,
      `         -H 'Content-Type: application/json' -d '{"user_id":"u1","event":"page_view","properties":{"page":"/home"}}'`,
      '',
      options.simulate
        ? 'Sending simulated traffic to the demo project (scripts/simulate) …'
        : 'Add --simulate (npm start -- --simulate) for a live demo with simulated traffic.',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  if (options.simulate) {
    // The planted scenarios too (goals, a job's completions, behavioural groups), with their job
    // active before the traffic: what test/integration/first-hour.test.ts checks every page shows.
    const { simulation, job } = await sendDemo(baseUrl, key);
    console.log(
      `Sent ${simulation.answers.events} events of ${simulation.answers.users} users, with a job "${job}" to complete; try ` +
        `curl -s ${baseUrl}/analytics/friction -H "Authorization: Bearer ${key}"`,
    );
  }
}

await runCli(
  {
    usage: 'npm start -- [--simulate] [--api n] [--processors n] [--analytics n] [--workers n]',
    summary:
      'The whole service on this machine: the local stack, then one supervised process per role (more where cores allow).',
    options: {
      simulate: { type: 'boolean', help: 'send simulated traffic to the demo project once it runs' },
      api: { type: 'string', arg: 'n', help: 'API processes (default: half the cores, at least 1)' },
      processors: {
        type: 'string',
        arg: 'n',
        help: 'processor processes sharing the partitions (default: half the cores)',
      },
      analytics: {
        type: 'string',
        arg: 'n',
        help: 'analytics-sink processes (default: as many as --processors; 0 runs the sink inside the processors)',
      },
      workers: { type: 'string', arg: 'n', help: 'worker processes (default 1; every worker is safe to run twice)' },
    },
  },
  ({ values }) => main(values),
);
