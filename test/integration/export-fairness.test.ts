import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import type { Services } from '../../lib/services.js';
import { runWarehouseExportPass, startWarehouseExportWorker } from '../../workers/warehouse-export/worker.js';
import { call, closeServices, newProject, services, startTestApi, waitFor } from './helpers.js';

const TIMEOUT_MS = 4000;

interface Status {
  id: string;
  status: string;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

// Read when the file loads, before the hooks point DATABASE_URL at the test database: the stack's server.
const stackPostgres = new URL(loadConfig().databaseUrl);

/**
 * A real Postgres warehouse (the stack's) behind a loopback proxy that holds every message to it
 * for `delayMs`: each statement is answered well within the statement timeout, and the whole
 * export still takes as long as the destination likes.
 */
async function slowWarehouse(delayMs: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: stackPostgres.hostname, port: Number(stackPostgres.port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    // In order, each chunk `delayMs` after the one before it was passed on.
    let passed = Promise.resolve();
    client.on('data', (chunk) => {
      passed = passed.then(() => sleep(delayMs)).then(() => void upstream.write(chunk));
    });
    upstream.on('data', (chunk) => client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    account: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A TCP listener posing as a Postgres warehouse that never answers: `handshake` lets the client
 * log in (no TLS, no password) and then swallows every statement; without it nothing is answered.
 */
async function silentWarehouse(handshake: boolean) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let loggedIn = false;
    socket.on('data', (chunk) => {
      if (!handshake || loggedIn) return;
      // SSLRequest: "N", no TLS here; the startup message follows.
      if (chunk.length === 8 && chunk.readUInt32BE(4) === 80877103) {
        socket.write('N');
        return;
      }
      loggedIn = true;
      // AuthenticationOk, then ReadyForQuery (idle).
      socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    account: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('warehouse exports are fair between projects', function () {
  this.timeout(60_000);
  let api: RunningApi;
  let worker: Services;
  const duckdbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-duckdb-fair-'));

  before(async () => {
    api = await startTestApi();
    worker = {
      ...services(),
      config: {
        ...services().config,
        duckdbDir,
        warehouseAllowHosts: ['127.0.0.1'],
        warehouseTimeoutMs: TIMEOUT_MS,
        warehouseConcurrency: 2,
      },
    };
  });

  after(async () => {
    await api.close();
    await closeServices();
    fs.rmSync(duckdbDir, { recursive: true, force: true });
  });

  async function queue(json: unknown, key?: string) {
    const keys = key === undefined ? (await newProject(['admin'])).keys : [key];
    const reply = await call<Status>(api, 'POST', '/analytics/export/warehouse', { key: keys[0]!, json });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    return async () =>
      (await call<Status>(api, 'GET', `/analytics/export/warehouse/${reply.body.id}`, { key: keys[0]! })).body;
  }
  const toPostgres = (account: string) => ({
    destination: 'postgres',
    // The silent warehouses speak plain TCP: TLS (verified by default) would fail them at once.
    credentials: { account, database: 'warehouse', user: 'pi', password: 'secret', tls: 'disable' },
    tables: ['users'],
  });

  it("runs B's export while A's destination never answers, then fails A after the timeout", async () => {
    const silent = await silentWarehouse(false);
    try {
      const a = await queue(toPostgres(silent.account));
      const b = await queue({ destination: 'duckdb', credentials: { database: 'b.duckdb' }, tables: ['users'] });
      const started = Date.now();
      const pass = runWarehouseExportPass(worker);
      const doneB = await waitFor('B succeeded', async () => {
        const s = await b();
        return s.status !== 'queued' && s.status !== 'running' && s;
      });
      assert.equal(doneB.status, 'succeeded', doneB.error ?? '');
      assert.equal((await a()).status, 'running', 'A is still waiting for its destination');
      assert.equal(silent.connections(), 1);
      // Exports other test files left queued in this database may be taken by the same pass.
      assert.ok((await pass) >= 2);
      const failedA = await a();
      assert.equal(failedA.status, 'failed');
      assert.match(failedA.error!, /timeout/i);
      assert.ok(Date.now() - started < TIMEOUT_MS * 2, `A failed after ${Date.now() - started} ms`);
    } finally {
      await silent.close();
    }
  });

  it("the running worker takes B's export queued while A's hangs, without waiting for A", async () => {
    const silent = await silentWarehouse(false);
    const running = await startWarehouseExportWorker({ ...worker, config: { ...worker.config, pollIntervalMs: 200 } });
    try {
      const a = await queue(toPostgres(silent.account));
      await waitFor(
        "A's export connecting",
        async () => silent.connections() === 1 && (await a()).status === 'running',
      );
      const b = await queue({ destination: 'duckdb', credentials: { database: 'b2.duckdb' }, tables: ['users'] });
      const doneB = await waitFor('B finished', async () => {
        const s = await b();
        return s.status !== 'queued' && s.status !== 'running' && s;
      });
      assert.equal(doneB.status, 'succeeded', doneB.error ?? '');
      assert.equal((await a()).status, 'running', 'A is still waiting for its destination');
      await waitFor('A failed', async () => (await a()).status === 'failed');
    } finally {
      await running.stop();
      await silent.close();
    }
  });

  it('fails an export whose destination logs in and then never answers a statement, within the timeout', async () => {
    const silent = await silentWarehouse(true);
    try {
      const a = await queue(toPostgres(silent.account));
      const started = Date.now();
      assert.equal(await runWarehouseExportPass(worker), 1);
      const elapsed = Date.now() - started;
      const failed = await a();
      assert.equal(failed.status, 'failed');
      assert.match(failed.error!, /timeout/i);
      // One statement's timeout, not a second one for the rollback nor a hang on hanging up.
      assert.ok(elapsed >= TIMEOUT_MS && elapsed < TIMEOUT_MS * 1.75, `failed after ${elapsed} ms`);
    } finally {
      await silent.close();
    }
  });

  it("stops an export at its deadline however slowly its destination answers, and another project's export completes", async () => {
    const DEADLINE_MS = 3000;
    const slow = await slowWarehouse(700);
    const runner = {
      ...worker,
      config: {
        ...worker.config,
        warehouseConcurrency: 2,
        // Every statement is answered within its timeout: only the run's deadline can stop these.
        warehouseTimeoutMs: 30_000,
        warehouseRunDeadlineMs: DEADLINE_MS,
        pollIntervalMs: 200,
      },
    };
    const toSlow = {
      destination: 'postgres',
      credentials: {
        account: slow.account,
        database: stackPostgres.pathname.slice(1),
        schema: 'slow_destination',
        user: decodeURIComponent(stackPostgres.username),
        password: decodeURIComponent(stackPostgres.password),
        tls: 'disable',
      },
      tables: ['users', 'events'],
    };
    const running = await startWarehouseExportWorker(runner);
    try {
      // Two projects' slow destinations take both runners.
      const slowOnes = [await queue(toSlow), await queue(toSlow)];
      await waitFor('both slow exports running', async () =>
        (await Promise.all(slowOnes.map((s) => s()))).every((s) => s.status === 'running'),
      );
      const b = await queue({
        destination: 'duckdb',
        credentials: { database: 'after-slow.duckdb' },
        tables: ['users'],
      });
      const queuedAt = Date.now();
      const doneB = await waitFor('B finished', async () => {
        const s = await b();
        return s.status !== 'queued' && s.status !== 'running' && s;
      });
      assert.equal(doneB.status, 'succeeded', doneB.error ?? '');
      assert.ok(Date.now() - queuedAt < DEADLINE_MS + 3000, `B waited ${Date.now() - queuedAt} ms for a runner`);
      for (const s of await Promise.all(slowOnes.map((one) => one()))) {
        assert.equal(s.status, 'failed');
        assert.match(s.error!, /longer than its deadline of 3 s \(PI_WAREHOUSE_RUN_DEADLINE_MS\) and was stopped/);
        const ran = Date.parse(s.finished_at!) - Date.parse(s.started_at!);
        assert.ok(ran >= DEADLINE_MS && ran < DEADLINE_MS + 2000, `stopped after ${ran} ms`);
      }
    } finally {
      await running.stop();
      await slow.close();
    }
  });

  it('lets projects take turns: a long queue of one project does not hold back a project that queued later', async () => {
    const { keys } = await newProject(['admin']);
    const toDuckdb = (database: string) => ({ destination: 'duckdb', credentials: { database }, tables: ['users'] });
    const a = [];
    for (const name of ['a1', 'a2', 'a3']) a.push(await queue(toDuckdb(`${name}.duckdb`), keys[0]));
    const b = await queue(toDuckdb('b-turn.duckdb'));
    await runWarehouseExportPass({ ...worker, config: { ...worker.config, warehouseConcurrency: 1 } });
    const [a1, a2, a3] = await Promise.all(a.map((s) => s()));
    const ofB = await b();
    for (const s of [a1!, a2!, a3!, ofB]) assert.equal(s.status, 'succeeded', s.error ?? '');
    const started = (s: Status) => Date.parse(s.started_at!);
    assert.ok(started(a1!) < started(ofB), "A's first export ran first");
    assert.ok(started(ofB) < started(a2!), "then B's, before the rest of A's queue");
    assert.ok(started(a2!) < started(a3!), "A's own exports in the order queued");
  });
});
