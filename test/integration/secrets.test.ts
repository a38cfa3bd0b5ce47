import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningApi } from '../../api/server.js';
import { SEALED, SecretBox, newSecretKey, parseSecretKeys } from '../../lib/secret-box.js';
import type { Services } from '../../lib/services.js';
import { runWarehouseExportPass } from '../../workers/warehouse-export/worker.js';
import { call, closeServices, newProject, services, startTestApi } from './helpers.js';

const run = promisify(execFile);

describe('secrets at rest', () => {
  let api: RunningApi;
  let admin: string;
  let projectId: string;
  let worker: Services;
  const duckdbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-secrets-'));

  const stored = async (sql: string) =>
    (await services().db.query<{ v: string }>(sql, [projectId])).rows.map((r) => r.v);
  const exportStatus = async (json: unknown) => {
    const queued = await call<{ id: string }>(api, 'POST', '/analytics/export/warehouse', { key: admin, json });
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    const sealed = await stored(`select credentials->>'password' as v from warehouse_exports where project_id = $1`);
    await runWarehouseExportPass(worker);
    const status = await call<{ status: string; error: string | null }>(
      api,
      'GET',
      `/analytics/export/warehouse/${queued.body.id}`,
      { key: admin },
    );
    const left = await stored(
      `select credentials::text as v from warehouse_exports where project_id = $1 and export_id = '${queued.body.id}'`,
    );
    await services().db.query('delete from warehouse_exports where project_id = $1', [projectId]);
    return { ...status.body, sealed, left: left[0]! };
  };

  before(async () => {
    api = await startTestApi();
    const project = await newProject(['admin']);
    [admin, projectId] = [project.keys[0]!, project.projectId];
    worker = {
      ...services(),
      config: { ...services().config, duckdbDir, warehouseAllowHosts: ['127.0.0.1', 'localhost'] },
    };
  });

  after(async () => {
    fs.rmSync(duckdbDir, { recursive: true, force: true });
    await api.close();
    await closeServices();
  });

  it('stores webhook signing secrets sealed with the configured key, never as issued', async () => {
    const made = await call<{ secret: string }>(api, 'POST', '/webhooks', {
      key: admin,
      json: { url: 'https://hooks.example.com/a', events: ['job.completed'] },
    });
    const put = await call<{ secret: string }>(api, 'PUT', '/settings/integrations/webhook', {
      key: admin,
      json: { url: 'https://hooks.example.com/b' },
    });
    assert.equal(made.status, 201);
    assert.equal(put.status, 201);
    const box = new SecretBox(services().config.secretKeys);
    const [subscription] = await stored('select secret as v from webhook_subscriptions where project_id = $1');
    const [integration] = await stored('select secret as v from integration_webhooks where project_id = $1');
    for (const [value, issued] of [
      [subscription!, made.body.secret],
      [integration!, put.body.secret],
    ] as const) {
      assert.ok(!value.includes(issued.replace(/^whsec_/, '')), 'the issued secret is not stored');
      assert.match(value, /^sealed:v1:/);
      assert.equal(box.open(value, SEALED.webhookSecret), issued);
      assert.throws(() => box.open(value, SEALED.warehousePassword), 'bound to its kind of secret');
    }
  });

  it('rotates: secrets:rotate seals every stored secret (and plain ones left by an older version) with the new key', async () => {
    const oldKeys = services().config.secretKeys;
    await services().db.query(
      `insert into webhook_subscriptions (project_id, webhook_id, url, events, secret)
       values ($1, 'wh_plain', 'https://hooks.example.com/p', '{job.completed}', 'whsec_cGxhaW4=')`,
      [projectId],
    );
    const before = await stored(
      'select secret as v from webhook_subscriptions where project_id = $1 order by webhook_id',
    );
    const plainBefore = new SecretBox(oldKeys);
    const expected = before.map((v) => (v.startsWith('sealed:') ? plainBefore.open(v, SEALED.webhookSecret) : v));

    const newKey = newSecretKey('rotated');
    const keyring = [newKey, ...oldKeys.map((k) => `${k.id}:${k.key.toString('base64')}`)].join(',');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/secrets-rotate.ts'], {
      env: { ...process.env, PI_SECRET_KEYS: keyring },
      timeout: 60_000,
    });
    assert.match(stdout, /webhook_subscriptions\.secret: [1-9]\d* sealed again/);

    // Only the new key is needed from now on: the old one can be dropped from the configuration.
    const parsed = parseSecretKeys(newKey);
    assert.ok(typeof parsed !== 'string', parsed as string);
    const onlyNew = new SecretBox(parsed);
    const after = await stored(
      'select secret as v from webhook_subscriptions where project_id = $1 order by webhook_id',
    );
    assert.deepEqual(
      after.map((v) => onlyNew.open(v, SEALED.webhookSecret)),
      expected,
    );
    const [integration] = await stored('select secret as v from integration_webhooks where project_id = $1');
    assert.ok(onlyNew.current(integration!));
    assert.throws(() => new SecretBox(oldKeys).open(after[0]!, SEALED.webhookSecret), /rotated.*not configured/);
    // A second run finds nothing left to do.
    const again = await run(process.execPath, ['--import', 'tsx', 'scripts/secrets-rotate.ts'], {
      env: { ...process.env, PI_SECRET_KEYS: keyring },
      timeout: 60_000,
    });
    assert.match(again.stdout, /webhook_subscriptions\.secret: 0 sealed again/);
    await services().db.query('delete from webhook_subscriptions where project_id = $1', [projectId]);
    await services().db.query('delete from integration_webhooks where project_id = $1', [projectId]);
  });

  it('stores a warehouse password sealed and wipes it when the export ends, whether it succeeded or failed', async () => {
    const done = await exportStatus({
      destination: 'duckdb',
      credentials: { database: 'sealed.duckdb', password: 'hunter2-ok' },
      tables: ['users'],
    });
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.match(done.sealed[0]!, /^sealed:v1:/);
    assert.ok(!done.left.includes('password'), done.left);

    const failed = await exportStatus({
      destination: 'postgres',
      credentials: { account: '127.0.0.1:1', database: 'd', user: 'u', password: 'hunter2-ko', tls: 'disable' },
      tables: ['users'],
    });
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /ECONNREFUSED/);
    assert.ok(!failed.left.includes('password'), failed.left);
  });

  it('connects to a Postgres warehouse over verified TLS unless told not to: a server without TLS is refused', async () => {
    const server = new URL(services().config.databaseUrl);
    const credentials = {
      account: `${server.hostname}:${server.port}`,
      // No such database: whatever happens, nothing is written into the stack's own.
      database: 'pi_no_such_database',
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    };
    const verified = await exportStatus({ destination: 'postgres', credentials, tables: ['users'] });
    assert.equal(verified.status, 'failed');
    assert.match(verified.error!, /SSL|TLS/i);
    const refused = await call(api, 'POST', '/analytics/export/warehouse', {
      key: admin,
      json: { destination: 'postgres', credentials: { ...credentials, tls: 'nonsense' }, tables: ['users'] },
    });
    assert.equal(refused.status, 400);
  });
});
