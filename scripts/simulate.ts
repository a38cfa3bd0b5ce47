/**
 * `npm run simulate -- --base-url http://127.0.0.1:3000/v1 --key <events:write key> [--seed 42]
 *   [--users 50] [--sessions 3] [--scenarios [--per-group 24]] [--out answers.json]`
 * Sends seeded traffic with planted friction through the real ingest API and writes the answers
 * it implies (scripts/simulate/generator.ts). `--scenarios` adds users with planted workflows,
 * job completions and behavioural groups (answers.scenarios); their answers are exact in a
 * project of their own (`--users 0`), with the job answers.scenarios.job describes created and
 * activated before the traffic is sent.
 */
import fs from 'node:fs';
import { UsageError, runCli } from '../lib/cli.js';
import { type SimulationOptions, simulate } from './simulate/generator.js';

const DAY = 86_400_000;

export async function sendSimulation(baseUrl: string, key: string, options: SimulationOptions) {
  const simulation = simulate(options);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).catch((err: Error & { cause?: { code?: string; message?: string } }) => {
      // fetch says only "fetch failed"; why (refused, unknown host, …) is in its cause.
      const why = err.cause?.code ?? err.cause?.message ?? err.message;
      throw new Error(
        `cannot reach ${baseUrl} (${why}): is the service running there (npm start), and is --base-url right?`,
      );
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  };
  for (const user of simulation.users) await post('/users/identify', user);
  for (let i = 0; i < simulation.events.length; i += 1000) {
    await post('/events/batch', { events: simulation.events.slice(i, i + 1000) });
  }
  return simulation;
}

/**
 * Defaults: sessions over the last week, so date_range=last_7_days covers them all. Without users
 * there is no one to plant friction patterns on (`users: 0` with scenarios: the scenarios alone).
 */
export function defaultOptions(seed: number, users: number, sessions: number): SimulationOptions {
  const today = Math.floor(Date.now() / DAY) * DAY;
  return {
    seed,
    users,
    sessions,
    start: today - 6 * DAY,
    spanMs: 3 * DAY,
    planted:
      users > 0
        ? { rage: 7, dead: 11, loops: 5, backtracks: 9, idle: 6 }
        : { rage: 0, dead: 0, loops: 0, backtracks: 0, idle: 0 },
  };
}

/**
 * What `npm start -- --simulate` sends to the demo project: normal browsing with planted friction
 * and the planted scenarios (goals, a job's completions, behavioural groups), with the scenarios'
 * job created and active before the traffic, so that every analytics page of the console
 * (Features, Friction, Workflows, Jobs, Cohorts) has something to show. Returns the simulation
 * and the job's name.
 */
export async function sendDemo(baseUrl: string, key: string, seed = Date.now() % 100_000) {
  const demo: SimulationOptions = { ...defaultOptions(seed, 60, 3), scenarios: { perGroup: 12 } };
  const job = await activeScenarioJob(baseUrl, key, simulate(demo).answers.scenarios!.job);
  return { simulation: await sendSimulation(baseUrl, key, demo), job };
}

/** Creates the scenarios' job in the project and makes it active; returns its name. */
async function activeScenarioJob(
  baseUrl: string,
  key: string,
  job: { goal: string; target_audience: { type: string; criteria: string } },
): Promise<string> {
  const name = `Reach ${job.goal}`;
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const created = await fetch(`${baseUrl}/jobs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name, goal: job.goal, target_audience: job.target_audience }),
  });
  if (!created.ok) throw new Error(`POST /jobs: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const activated = await fetch(`${baseUrl}/jobs/${id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ status: 'active' }),
  });
  if (!activated.ok) throw new Error(`PATCH /jobs/${id}: ${activated.status} ${await activated.text()}`);
  return name;
}

const whole = (name: string, value: string | undefined, fallback: number, min: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name}: expected a whole number ≥ ${min}`);
  return n;
};

const SPEC = {
  usage:
    'npm run simulate -- --key <events:write key> [--base-url …] [--seed n] [--users n] [--sessions n] [--scenarios [--per-group n]] [--out file]',
  summary:
    'Sends seeded traffic with planted friction through the ingest API and writes the answers it implies (to --out, or stdout).',
  options: {
    key: { type: 'string', arg: 'key', help: 'an events:write (or admin) key of the project to fill' },
    'base-url': { type: 'string', arg: 'url', help: 'the API (default http://127.0.0.1:3000/v1)' },
    seed: { type: 'string', arg: 'n', help: 'the seed: the same seed sends the same traffic (default 42)' },
    users: { type: 'string', arg: 'n', help: 'users with normal browsing and planted friction (default 50)' },
    sessions: { type: 'string', arg: 'n', help: 'sessions per user (default 3)' },
    scenarios: { type: 'boolean', help: 'add users with planted workflows, job completions and behavioural groups' },
    'per-group': {
      type: 'string',
      arg: 'n',
      help: 'with --scenarios: users per behavioural group, 5 to 200 (default 24)',
    },
    out: { type: 'string', arg: 'file', help: 'write the answers to this file' },
  },
} as const;

/** The command line: sends the traffic and writes the answers to `--out` (or stdout); answers the exit code. */
export function runSimulate(args: string[]): Promise<number> {
  return runCli(
    SPEC,
    async ({ values }) => {
      if (!values.key) throw new UsageError('--key is required');
      const options = defaultOptions(
        whole('seed', values.seed, 42, 0),
        whole('users', values.users, 50, 0),
        whole('sessions', values.sessions, 3, 1),
      );
      if (values.scenarios) options.scenarios = { perGroup: whole('per-group', values['per-group'], 24, 5) };
      const simulation = await sendSimulation(values['base-url'] ?? 'http://127.0.0.1:3000/v1', values.key, options);
      const answers = JSON.stringify(simulation.answers, null, 2);
      if (values.out) fs.writeFileSync(values.out, `${answers}\n`);
      console.error(
        `sent ${simulation.events.length} events of ${simulation.users.length} users (${simulation.answers.sessions} sessions)`,
      );
      if (!values.out) console.log(answers);
    },
    args,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runSimulate(process.argv.slice(2));
