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
