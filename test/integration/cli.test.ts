import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { parse } from 'yaml';
import { APICURIO_VERSION } from '../../scripts/local-stack/versions.js';
import { loadConfig } from '../../lib/config.js';
import { dumpSchema } from '../../lib/schema-dump.js';
import { topicName } from '../../lib/topics.js';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, isolateTopics, newProject, startTestApi } from './helpers.js';

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
    const { rows } = await db.query<{ hash: Buffer; scopes: string[] }>(
      'select k.secret_hash as hash, k.scopes from api_keys k join projects p using (project_id) where p.name = $1',
      [project],
    );
    await db.end();
    assert.deepEqual(rows[0]!.scopes, ['events:write']);
    assert.equal(rows[0]!.hash.length, 32, 'only a SHA-256 of the key is stored');
    assert.ok(!rows[0]!.hash.toString('latin1').includes(key));

    await assert.rejects(tsx('scripts/key-create.ts', ['--project', project, '--scopes', 'root']), /scopes must be/);
  });

  it('topic:tail prints decoded messages of a topic', async () => {
    const {
      keys: [key],
    } = await newProject(['events:write']);
    const userId = `tail-${crypto.randomUUID()}`;
    await call(api, 'POST', '/events', { key, json: { user_id: userId, event: 'tail_me', properties: { a: 1 } } });
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
      .map((l) => JSON.parse(l) as { key: string; value: { user_id: string; event: string; properties: string } });
    const mine = lines.filter((l) => l.value.user_id === userId);
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.value.event, 'tail_me');
    assert.deepEqual(JSON.parse(mine[0]!.value.properties), { a: 1 });
  });

  it('the migrated schema equals the committed sql/schema.sql (run `npm run schema:dump` after a migration)', async () => {
    const db = new pg.Client({ connectionString: loadConfig().databaseUrl });
    await db.connect();
    try {
      const committed = fs.readFileSync(path.join('sql', 'schema.sql'), 'utf8');
      assert.equal(await dumpSchema(db), committed);
    } finally {
      await db.end();
    }
  });

  it('docker-compose.yml runs the same stack and points the service at it', () => {
    // Parsed here whether or not a Docker client is installed.
    const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8')) as {
      services: Record<string, { image: string; environment?: Record<string, string | number>; depends_on?: object }>;
    };
    assert.deepEqual(Object.keys(compose.services).sort(), ['app', 'kafka', 'mail', 'postgres', 'registry']);
    assert.match(compose.services.kafka!.image, /^apache\/kafka:3\.9\./);
    assert.match(compose.services.registry!.image, new RegExp(`^apicurio/apicurio-registry:${APICURIO_VERSION}$`));
    const app = compose.services.app!.environment!;
    assert.equal(app.KAFKA_BROKERS, 'kafka:9092');
    assert.match(String(app.SCHEMA_REGISTRY_URL), /^http:\/\/registry:8080\/apis\/ccompat\/v7$/);
    assert.match(String(app.DATABASE_URL), /@postgres:5432\//);
    assert.equal(app.SMTP_URL, 'smtp://mail:1025');
    assert.equal(compose.services.registry!.environment!.APICURIO_RULES_GLOBAL_COMPATIBILITY, 'BACKWARD');
  });

  it('docker compose accepts docker-compose.yml (when the docker compose client is present)', async function () {
    const probe = await run('docker', ['compose', 'version']).catch(() => undefined);
    if (!probe) this.skip();
    await run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--quiet']);
  });
});
