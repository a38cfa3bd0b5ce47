/**
 * `npm run faults`: the fault suite of issue 18 (docs/reliability.md). On a stack of its own
 * (.stack-faults/, Postgres :5443, Kafka :9192, registry :8181, API :3950) it runs `npm start`,
 * then pauses (SIGSTOP/SIGCONT) and kills (kill -9, then restart) Kafka, the registry and
 * Postgres in turn under a paced `POST /events` load with retrying clients, times bystander reads,
 * and checks in Postgres that every acknowledged event is stored exactly once. Exit 1 when not.
 * It stops everything it started, on failure and on Ctrl-C too. Not part of `npm test`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, parseOnly, runCli } from '../lib/cli.js';
import { FAULTS, suiteEnv } from './faults/plan.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const whole = (name: string, value: string | undefined, fallback: number, min: number, max: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name}: expected a whole number from ${min} to ${max}`);
  return n;
};

await runCli(
  {
    usage: 'npm run faults -- [--only f1,f2] [--rate n] [--users n] [--pause s] [--out file]',
    summary:
      'Pauses and kills Kafka, the registry and Postgres of a stack of its own under a paced ingest load; ' +
      `checks that nothing acknowledged is lost or stored twice. Faults: ${FAULTS.join(', ')}.`,
    options: {
      only: { type: 'string', arg: 'faults', help: 'a comma-separated subset of the faults (default: all, in order)' },
      rate: { type: 'string', arg: 'n', help: 'POST /events per second during each fault (default 50)' },
      users: { type: 'string', arg: 'n', help: 'simulated users sending them (default 5)' },
      pause: { type: 'string', arg: 's', help: 'seconds a paused part stays stopped (default 20)' },
      out: { type: 'string', arg: 'file', help: 'JSON report (default .bench/faults.json)' },
    },
  },
  async ({ values }) => {
    const options = {
      faults: parseOnly(values.only, FAULTS) ?? [...FAULTS],
      rate: whole('rate', values.rate, 50, 1, 2000),
      users: whole('users', values.users, 5, 1, 10_000),
      pauseSeconds: whole('pause', values.pause, 20, 1, 300),
      leadSeconds: 5,
      tailSeconds: 10,
      out: values.out ?? '.bench/faults.json',
      serviceLog: '.bench/faults-service.log',
    };
    // The stack's modules read their addresses when they load: set the suite's before loading them.
    process.env = suiteEnv(process.env, path.join(root, '.stack-faults'));
    const { runFaults } = await import('./faults/run.js');
    return runFaults(options);
  },
);
