import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { stackPath } from '../../scripts/local-stack/paths.js';
import { closeServices, isolateTopics, waitFor } from './helpers.js';

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * `npm start` (scripts/start.ts, what it runs after building the bundles) against a database of its
 * own (a fresh install: the run's database holds other files' leftovers, such as deliveries to
 * endpoints their tests removed, which the workers rightly warn about) and the test topics, with the log levels it has by default: every role, one event through the
 * whole chain, and not one ERROR or WARN line on the way. kafkajs printed two on every start
 * (a coordinator not yet available, the idempotent producer's limited retries).
 */
describe('npm start, healthy: no ERROR or WARN line', function () {
  this.timeout(180_000);
  let start: ChildProcess | undefined;
  const lines: string[] = [];
  const runUrl = loadConfig().databaseUrl;
  const database = `${databaseName(runUrl)}_quiet`;
  const databaseUrl = withDatabase(runUrl, database);
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: runUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const count = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql)).rowCount ?? 0;
    } finally {
      await client.end();
    }
  };

  before(() => admin(`create database ${pg.escapeIdentifier(database)}`));

  after(async () => {
    if (start && start.exitCode === null && start.signalCode === null) {
      const exited = once(start, 'exit');
      start.kill('SIGTERM');
      await exited;
    }
    // The demo keys npm start keeps for a restart, named after its database.
    for (const name of ['demo-admin-key', 'demo-browser-key'])
      fs.rmSync(stackPath(`${name}-${database}`), { force: true });
    await admin(`drop database if exists ${pg.escapeIdentifier(database)} with (force)`);
    await closeServices();
  });

  it('starts every role, carries an event to session_events and stops, all without ERROR or WARN', async () => {
    await isolateTopics();
    const port = await freePort();
    start = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        PI_KAFKA_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [start.stdout!, start.stderr!]) {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        const parts = (partial + text).split('\n');
        partial = parts.pop()!;
        lines.push(...parts);
      });
    }
    const exited = once(start, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const failedWith = () => `npm start's output:\n${lines.join('\n')}`;

    const key = await waitFor(
      'npm start to print the admin key',
      () => {
        if (start!.exitCode !== null) throw new Error(`npm start exited (${start!.exitCode})\n${failedWith()}`);
        return lines.map((l) => /^\s+admin key\s+(pi_\S+)/.exec(l)?.[1]).find(Boolean);
      },
      120_000,
    );
    for (const role of ['api', 'processors', 'workers']) {
      await waitFor(
        `the ${role} role to start`,
        () => lines.some((l) => l.includes(`started {"role":"${role}"}`)),
        60_000,
      );
    }

    // One event through the chain: the sessionizer's transactional producers are made on the way.
    const demo = await count(`select 1 from projects where name = 'demo'`);
    assert.equal(demo, 1);
    const stored = () =>
      count(`select 1 from session_events e join projects p using (project_id) where p.name = 'demo'`);
    const before = await stored();
    const sent = await fetch(`http://127.0.0.1:${port}/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ user_id: 'quiet-u', event: 'page_view', message_id: crypto.randomUUID() }),
    });
    assert.equal(sent.status, 202, await sent.text());
    await waitFor('the event in session_events', async () => (await stored()) > before, 60_000);

    start.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, failedWith());
    assert.ok(
      lines.some((l) => l.includes('Product intelligence is running')),
      failedWith(),
    );
    const loud = lines.filter((l) => /\b(ERROR|WARN|FATAL)\b/.test(l) || /exited \(.*\); restarting/.test(l));
    assert.deepEqual(loud, [], failedWith());
  });
});
