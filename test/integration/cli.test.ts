import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { parse } from 'yaml';
import { APICURIO_VERSION } from '../../scripts/local-stack/versions.js';
import { POSTGRES_SETTINGS } from '../../scripts/local-stack/postgres.js';
import { loadConfig } from '../../lib/config.js';
import { ROLE_NODE_OPTIONS } from '../../lib/role.js';
import { topicName, userKey } from '../../lib/kafka/topics.js';
import { openValue } from '../../domain/sealed-user.js';
import { userRefOf } from '../../store/user-keys.js';
import type { RunningApi } from '../../api/server.js';
import { assertComposeShape, composeConfig } from '../docker/compose.js';
import { call, closeServices, isolateTopics, newProject, services, startTestApi, waitFor } from './helpers.js';

const run = promisify(execFile);
const tsx = (script: string, args: string[]) =>
  run(process.execPath, ['--import', 'tsx', script, ...args], { env: process.env, timeout: 60_000 });

describe('command-line tools', () => {
  let api: RunningApi;
  before(async () => {
    await isolateTopics();
    api = await startTestApi();
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  it('key:create prints a new key once, with the scopes asked for', async () => {
    const project = `cli-${crypto.randomUUID()}`;
    const { stdout } = await tsx('scripts/key-create.ts', ['--project', project, '--scopes', 'events:write']);
    const key = stdout.trim();
    assert.match(key, /^pi_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    const ok = await call(api, 'POST', '/events', { key, json: { user_id: 'u', event: 'e' } });
    assert.equal(ok.status, 202);

    const db = new pg.Client({ connectionString: loadConfig().databaseUrl });
    await db.connect();
    const { rows } = await db
      .query<{ hash: Buffer; scopes: string[] }>(
        'select k.secret_hash as hash, k.scopes from api_keys k join projects p using (project_id) where p.name = $1',
        [project],
      )
      .finally(() => db.end());
    assert.deepEqual(rows[0]!.scopes, ['events:write']);
    assert.equal(rows[0]!.hash.length, 32, 'only a SHA-256 of the key is stored');
    assert.ok(!rows[0]!.hash.toString('latin1').includes(key));

    await assert.rejects(tsx('scripts/key-create.ts', ['--project', project, '--scopes', 'root']), /scopes must be/);
  });

  it('every command of package.json answers --help with its options, and a bad option with one line and exit code 2', async () => {
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    // The commands that run a TypeScript entry (tests, lint and the bootstrap hooks are not commands of ours).
    const entries = Object.entries(scripts).flatMap(([name, line]) => {
      const m = /(?:^|&& |exec )tsx (\S+\.ts)/.exec(line);
      return m ? [[name, m[1]!] as const] : [];
    });
    assert.ok(entries.length >= 14, `found ${entries.map(([n]) => n).join(', ')}`);
    const outcome = (args: string[]) =>
      run(process.execPath, ['--import', 'tsx', ...args], { env: process.env, timeout: 60_000 }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    for (let i = 0; i < entries.length; i += 4) {
      await Promise.all(
        entries.slice(i, i + 4).map(async ([name, file]) => {
          const [help, bad] = await Promise.all([outcome([file, '--help']), outcome([file, '--no-such-option'])]);
          assert.equal(help.code, 0, `${name} --help: ${help.stderr}`);
          assert.match(help.stdout, /^usage: /, `${name} --help prints its usage`);
          assert.match(help.stdout, /--help/, `${name} --help lists its options`);
          assert.equal(bad.code, 2, `${name} --no-such-option exits 2: ${bad.stderr}`);
          assert.equal(bad.stderr.trim().split('\n').length, 1, `${name}: one line, got ${bad.stderr}`);
        }),
      );
    }
  });

  it('topic:tail exits after --max messages, and at the end of the topic with --to-end', async () => {
    const {
      projectId,
      keys: [key],
    } = await newProject(['events:write']);
    const userId = `tail-end-${crypto.randomUUID()}`;
    const events = [1, 2, 3].map((n) => ({ user_id: userId, event: `tail_${n}` }));
    assert.equal((await call(api, 'POST', '/events/batch', { key, json: { events } })).status, 202);
    const decoded = (stdout: string) =>
      stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { key: string });
    const max = await tsx('scripts/topic-tail.ts', [topicName('events'), '--from-beginning', '--max', '2']);
    assert.equal(decoded(max.stdout).length, 2);
    const all = await tsx('scripts/topic-tail.ts', [topicName('events'), '--from-beginning', '--to-end']);
    const messageKey = userKey(projectId, await userRefOf(services().db, projectId, userId));
    assert.equal(decoded(all.stdout).filter((l) => l.key === messageKey).length, 3);
  });

  it('topic:tail prints decoded messages of a topic', async () => {
    const {
      projectId,
      keys: [key],
    } = await newProject(['events:write']);
    const userId = `tail-${crypto.randomUUID()}`;
    const sent = await call<{ message_ids: string[] }>(api, 'POST', '/events', {
      key,
      json: { user_id: userId, event: 'tail_me', properties: { a: 1 } },
    });
    const [messageId] = sent.body.message_ids;
    const { stdout } = await tsx('scripts/topic-tail.ts', [
      topicName('events'),
      '--from-beginning',
      '--max',
      '100000',
      '--idle-ms',
      '3000',
    ]);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; value: { user_ref: string; event: string; sealed: string } });
    // Keyed by the user's pseudonym; the sealed user id and properties print as base64.
    const ref = await userRefOf(services().db, projectId, userId);
    const mine = lines.filter((l) => l.key === userKey(projectId, ref));
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.value.event, 'tail_me');
    const { rows } = await services().db.query<{ key: Buffer }>(
      'select key from user_keys where project_id = $1 and user_ref = $2',
      [projectId, ref],
    );
    const opened = openValue(rows[0]!.key, `${projectId}:${ref}`, Buffer.from(mine[0]!.value.sealed, 'base64'));
    assert.deepEqual(opened, { user_id: userId, properties: JSON.stringify({ a: 1 }), message_id: messageId });

    // For an operator: one project only, opened with the users' keys, and a word while it waits.
    const operator = await tsx('scripts/topic-tail.ts', [
      topicName('events'),
      '--from-beginning',
      '--project',
      projectId,
      '--open',
      '--idle-ms',
      '3000',
    ]);
    const openedLines = operator.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { value: { project_id: string; opened: unknown; sealed?: unknown } });
    assert.deepEqual(
      openedLines.map((l) => [l.value.project_id, l.value.opened, l.value.sealed]),
      [[projectId, { user_id: userId, message_id: messageId, properties: { a: 1 } }, undefined]],
    );
    assert.match(operator.stderr, /^waiting for messages on .* of project /m);
  });

  it('simulate against a URL nothing answers says so and what to check, not "fetch failed"', async () => {
    const failed = await tsx('scripts/simulate.ts', ['--base-url', 'http://127.0.0.1:3999/v1', '--key', 'k']).catch(
      (err: { code: number; stderr: string }) => err,
    );
    assert.ok('code' in failed && failed.code !== 0, JSON.stringify(failed));
    assert.match(
      failed.stderr,
      /cannot reach http:\/\/127\.0\.0\.1:3999\/v1 \(ECONNREFUSED\): is the service running there/,
    );
  });

  it('topic:tail names an unknown topic in one line, at once', async () => {
    const started = Date.now();
    const failed = await tsx('scripts/topic-tail.ts', ['pi.no-such-topic.v1', '--max', '1']).catch(
      (err: { code: number; stderr: string }) => err,
    );
    assert.ok('code' in failed && failed.code === 2, JSON.stringify(failed));
    assert.equal(failed.stderr.trim().split('\n').length, 1, failed.stderr);
    assert.match(failed.stderr, /no topic pi\.no-such-topic\.v1/);
    assert.ok(Date.now() - started < 15_000, 'kafkajs did not retry its metadata for half a minute');
  });

  /**
   * `npm run <role>` with `env`, once the role has logged that it started; `check` gets npm's
   * process, the role's pid, what it printed so far and npm's exit. No process is left behind.
   */
  async function withRoleScript(
    role: 'api' | 'workers',
    env: NodeJS.ProcessEnv,
    check: (run: {
      npm: ReturnType<typeof spawn>;
      rolePid: number;
      out: () => string;
      exited: Promise<[number | null, string | null]>;
    }) => Promise<void>,
  ) {
    const npm = spawn('npm', ['run', role], {
      env: { ...process.env, ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let rolePid: number | undefined;
    npm.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = once(npm, 'exit') as Promise<[number | null, string | null]>;
    try {
      const started = await waitFor(
        `npm run ${role} to start the role`,
        () => new RegExp(`"pid":(\\d+),"service":"${role}","role":"${role}","msg":"started"`).exec(out) ?? undefined,
        60_000,
      );
      rolePid = Number(started[1]);
      await check({ npm, rolePid, out: () => out, exited });
    } finally {
      // Whatever failed, leave no process behind.
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGTERM');
      try {
        if (rolePid) process.kill(rolePid, 'SIGTERM');
      } catch {
        // gone already: the expected case
      }
    }
  }

  it('npm run api passes SIGTERM on to the role, which stops cleanly (as docker stop sends it to the container)', async () => {
    // npm runs a script through sh, which does not pass signals on: the role scripts `exec` node so
    // that npm's SIGTERM reaches the role.
    await withRoleScript('api', { PORT: '0' }, async ({ npm, rolePid, out, exited }) => {
      assert.notEqual(rolePid, npm.pid, 'the role is a process of its own under npm');
      npm.kill('SIGTERM');
      const [code, signal] = await exited;
      assert.deepEqual([code, signal], [0, null], 'npm waited for the role and passed on its exit code');
      assert.match(out(), /"signal":"SIGTERM","msg":"stopping"/);
      assert.throws(() => process.kill(rolePid, 0), { code: 'ESRCH' }, 'the role process is gone');
    });
  });

  it("npm run workers yields the CPU (its process runs at PI_WORKERS_NICE) and runs with the roles' node options", async () => {
    await withRoleScript('workers', { PI_WORKERS_NICE: '7' }, async ({ npm, rolePid, exited }) => {
      // /proc/<pid>/stat: the 19th field is the nice value (the name in parentheses may hold spaces).
      const stat = fs.readFileSync(`/proc/${rolePid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      assert.equal(Number(fields[16]), 7);
      const argv = fs.readFileSync(`/proc/${rolePid}/cmdline`, 'utf8').split('\0');
      for (const option of ROLE_NODE_OPTIONS) assert.ok(argv.includes(option), `${option} in ${argv.join(' ')}`);
      npm.kill('SIGTERM');
      await exited;
    });
  });

  describe('docker-compose.yml', () => {
    const known = {
      scripts: (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts,
      apicurioVersion: APICURIO_VERSION,
      postgresSettings: POSTGRES_SETTINGS,
    };

    it('runs each role as a service of the image, beside the same stack', () => {
      // As written (anchors merged as Compose merges them), whether or not a Compose client is installed.
      const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as Parameters<
        typeof assertComposeShape
      >[0];
      assertComposeShape(compose, known);
      for (const scaled of ['processors', 'analytics', 'workers']) {
        assert.equal(compose.services[scaled]!.deploy?.replicas, 1, `${scaled}: deploy.replicas shows how to scale`);
      }
    });

    it('is accepted by Compose, which reads it the same way', async () => {
      // Debian's docker-compose is installed when no Compose client is present (test/docker/compose.ts).
      const resolved = parse(await composeConfig('docker-compose.yml')) as Parameters<typeof assertComposeShape>[0];
      assertComposeShape(resolved, known);
    });
  });
});
