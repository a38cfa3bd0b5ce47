import assert from 'node:assert/strict';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type RunningApi, apiPoolLimits, startApi } from '../../api/server.js';
import { type Config, loadConfig } from '../../lib/config.js';
import { createPool, inTransaction } from '../../lib/db.js';
import { classify } from '../../lib/errors.js';
import { createLogger } from '../../lib/log.js';
import { type Services, connectServices } from '../../lib/services.js';
import { FreezingProxy } from './freezing-proxy.js';
import { closeServices, count, newProject, services, waitFor } from './helpers.js';

const EXPORT_ROWS = 60_000;
const IDLE_MS = 3000;

/** A request whose response is never read past its headers (until `readAll`): a paused export reader. */
function pausedReader(url: string, key: string) {
  let response: http.IncomingMessage | undefined;
  const answered = new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
    const req = http.get(url, { headers: { Authorization: `Bearer ${key}` } }, (res) => {
      response = res;
      // A refused export's error body is read; an export's body is not.
      if (res.statusCode !== 200) res.resume();
      resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] });
    });
    req.on('error', reject);
  });
  /** Reads on at last: the lines received, until the end or until the server cut the connection. */
  const readAll = () =>
    new Promise<number>((resolve) => {
      let text = '';
      response!.setEncoding('utf8');
      response!.on('data', (chunk: string) => (text += chunk));
      response!.on('error', () => undefined);
      response!.on('close', () => resolve(text.split('\n').filter(Boolean).length));
    });
  return { answered, readAll };
}

/** Backends running an export's query (the streamed exports' pool). */
const exportQueries = () =>
  count(
    `select 1 from pg_stat_activity where datname = current_database() and query like '%from raw_events%order by occurred_at, message_id%' and pid <> pg_backend_pid()`,
  );

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;

describe('Postgres deadlines: statement and pool timeouts, streamed exports apart', function () {
  this.timeout(120_000);
  let api: RunningApi;
  let limited: Services;
  let projectId: string;
  let admin: string;
  let reader: string;
  let config: Config;

  before(async () => {
    // Read here, not at load: the run's database is set by the global setup.
    config = {
      ...loadConfig(),
      port: 0,
      pgStatementTimeoutMs: 1000,
      pgAcquireTimeoutMs: 1000,
      exportConnections: 4,
      // One project's readers may take the whole pool here: this file tests the pool, not the
      // per-project share (export-stream-share.test.ts does).
      exportProjectConnections: 10,
      exportIdleMs: IDLE_MS,
    };
    // The API's main pool as the api role makes it (api/main.ts), small as a test's.
    limited = connectServices(config, createLogger('silent'), 5, apiPoolLimits(config));
    api = await startApi(config, limited);
    const project = await newProject(['admin'], ['analytics:read']);
    projectId = project.projectId;
    [admin, reader] = project.keys as [string, string];
    await services().db.query(
      `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                               kafka_partition, kafka_offset)
       select $1, 'm' || g, 'u' || (g % 500), 'clicked',
              jsonb_build_object('page', '/p/' || g, 'note', repeat('x', 120)),
              now() - g * interval '1 second', now(), 0, g
       from generate_series(1, $2::int) g`,
      [projectId, EXPORT_ROWS],
    );
  });

  after(async () => {
    await api?.close();
    await limited?.close();
    await closeServices();
  });

  const exportUrl = () => `${api.baseUrl}/analytics/export/events?format=ndjson&date_range=last_7_days`;

  it('ten paused export readers: four hold export connections, six get 503; auth and reads keep their latency; idle readers are dropped', async () => {
    const readers = Array.from({ length: 10 }, () => pausedReader(exportUrl(), reader));
    const answers = await Promise.all(readers.map((r) => r.answered));
    const startedAt = Date.now();
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 503, 503, 503, 503, 503, 503]);
    assert.ok(
      answers.filter((a) => a.status === 503).every((a) => Number(a.retryAfter) >= 1),
      'Retry-After',
    );

    // Bystanders: authentication, rate limit and a read, timed while the readers hold on.
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const start = performance.now();
      const res = await fetch(`${api.baseUrl}/jobs`, {
        headers: { Authorization: `Bearer ${admin}` },
        signal: AbortSignal.timeout(5000),
      });
      await res.text();
      assert.equal(res.status, 200);
      times.push(performance.now() - start);
    }
    assert.ok(p99(times) < 1500, `bystanders' p99 ${Math.round(p99(times))} ms`);

    assert.equal(await exportQueries(), 4, 'four exports hold their connections');
    await waitFor('the idle readers to be dropped', async () => (await exportQueries()) === 0, IDLE_MS + 5000);
    const dropAfter = Date.now() - startedAt;
    // A dropped reader that reads on finds its file cut off, not complete.
    const held = readers.filter((_, i) => answers[i]!.status === 200);
    const received = await Promise.all(held.map((r) => r.readAll()));
    assert.ok(
      received.every((lines) => lines < EXPORT_ROWS),
      `lines received: ${received.join(', ')}`,
    );
    // Their connections are back: a reader that reads gets the whole file.
    const full = await fetch(exportUrl(), { headers: { Authorization: `Bearer ${reader}` } });
    assert.equal(full.status, 200);
    const lines = (await full.text()).split('\n').filter(Boolean).length;
    assert.equal(lines, EXPORT_ROWS);
    console.log(
      `      slow export readers: 10 paused (4 held, 6 refused 503), bystanders ${times.length} × GET /jobs ` +
        `p99 ${Math.round(p99(times))} ms, idle readers dropped within ${dropAfter} ms`,
    );
  });

  it('answers 503 with Retry-After when a statement outlives the statement timeout (a table locked)', async () => {
    const locker = new pg.Client({ connectionString: config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table api_keys in access exclusive mode');
      const start = performance.now();
      const res = await fetch(`${api.baseUrl}/jobs`, {
        headers: { Authorization: `Bearer ${admin}` },
        signal: AbortSignal.timeout(10_000),
      });
      const ms = performance.now() - start;
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(res.status, 503);
      assert.equal(body.error.code, 'service_unavailable');
      assert.ok(Number(res.headers.get('retry-after')) >= 1);
      assert.doesNotMatch(body.error.message, /api_keys|select|127\.0\.0\.1|5433/);
      assert.ok(ms < 3000, `answered after ${Math.round(ms)} ms`);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
  });

  it('ends a session left idle in a transaction, releasing its locks', async () => {
    const pool = createPool(config.databaseUrl, 1, { idleInTransactionMs: 300 });
    pool.on('error', () => undefined);
    const client = await pool.connect();
    client.on('error', () => undefined);
    try {
      await client.query('begin');
      await client.query('lock table api_keys in access share mode');
      await sleep(800);
      const err = await client.query('select 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err, 'the session was ended');
      assert.ok(classify(err).retriable, (err as Error).message);
    } finally {
      client.release(true);
      await pool.end();
    }
  });

  // npm run faults (docs/reliability.md): with Postgres stopped, a statement already on a
  // connection waited for as long as the server was stopped; statement_timeout is the server's own.
  it('stops waiting for a frozen server after the statement timeout and a margin, and serves again after it', async () => {
    const url = new URL(config.databaseUrl);
    const proxy = await FreezingProxy.start({ host: url.hostname, port: Number(url.port) });
    url.port = String(proxy.port);
    const pool = createPool(url.toString(), 2, { statementTimeoutMs: 500, acquireTimeoutMs: 500 });
    pool.on('error', () => undefined);
    try {
      await Promise.all([pool.query('select 1'), pool.query('select 1')]); // two open connections
      proxy.freeze();
      const timed = async (work: () => Promise<unknown>) => {
        const start = performance.now();
        const outcome = await Promise.race([
          work().then(
            () => 'answered',
            (e: unknown) => e,
          ),
          sleep(5000).then(() => 'still waiting after 5 s'),
        ]);
        return { outcome, ms: performance.now() - start };
      };
      const [plain, transaction] = await Promise.all([
        timed(() => pool.query('select 1')),
        timed(() => inTransaction(pool, (client) => client.query('select 1'))),
      ]);
      for (const { outcome, ms } of [plain, transaction]) {
        assert.ok(outcome instanceof Error, String(outcome));
        assert.ok(classify(outcome).retriable, outcome.message);
        assert.ok(ms < 2500, `gave up after ${Math.round(ms)} ms`);
      }
      proxy.thaw();
      // The connections that did not answer were discarded: new ones serve.
      assert.deepEqual((await pool.query<{ n: number }>('select 1 as n')).rows, [{ n: 1 }]);
    } finally {
      await proxy.close();
      await pool.end();
    }
  });
});
