import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import type { RunningApi } from '../../api/server.js';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { onTheWire } from '../../domain/metrics.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import type { Services } from '../../lib/services.js';
import { runWarehouseExportPass, startWarehouseExportWorker } from '../../workers/warehouse-export/worker.js';
import { call, closeServices, errorOf, newProject, services, startTestApi, waitFor } from './helpers.js';

interface Status {
  id: string;
  status: string;
  row_counts: Record<string, number>;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

const EVENTS = 12_345; // more than two worker batches

/**
 * Sessions (one per user) whose paths give the workflow worker several workflows per goal: shared
 * paths, one over 10 steps (capped with "..."), one-offs folded into "other", attempts that stop.
 */
function workflowSessions(): { user_id: string; event: string; page: string | null; at: string }[] {
  const rows: { user_id: string; event: string; page: string | null; at: string }[] = [];
  const session = (user: string, steps: string[]) =>
    steps.forEach((step, i) => {
      const page = step.startsWith('/') ? step : null;
      // Uneven gaps so avg_time_seconds and the other means are not round numbers.
      const at = new Date(Date.UTC(2025, 5, 1, 12) + i * 1733 + Number(user.slice(1)) * 97);
      rows.push({ user_id: user, event: page ? 'page_view' : step, page, at: at.toISOString() });
    });
  const long = Array.from({ length: 12 }, (_, i) => `/step${i}`);
  for (let i = 0; i < 30; i++) {
    const user = `w${i}`;
    if (i % 5 === 0) session(user, ['/home', '/pricing', 'signup']);
    else if (i % 5 === 1) session(user, ['/home', '/docs', '/docs', '/pricing', 'signup']);
    else if (i % 5 === 2) session(user, [`/campaign${i}`, 'signup']);
    else if (i % 5 === 3) session(user, i < 10 ? [...long, 'signup'] : ['/home', '/docs']);
    else session(user, ['/settings', '/billing', 'upgrade', '/home', '/pricing', 'signup']);
  }
  return rows;
}

describe('warehouse export', () => {
  let api: RunningApi;
  let admin: string;
  let projectId: string;
  let worker: Services;
  let dest: pg.Client;
  // Read when the file loads, before the hooks point DATABASE_URL at the test database: same server.
  const server = new URL(loadConfig().databaseUrl);
  const destDb = `${databaseName(server.href)}_wh_${process.pid}`;
  const duckdbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-duckdb-'));
  const pgCredentials = {
    account: `${server.hostname}:${server.port}`,
    database: destDb,
    schema: 'analytics',
    user: 'postgres',
    password: 'postgres',
    // The stack's Postgres speaks no TLS; a destination must say so (verified TLS is the default).
    tls: 'disable',
  };

  const post = (json: unknown) => call<Status>(api, 'POST', '/analytics/export/warehouse', { key: admin, json });
  const status = async (id: string) =>
    (await call<Status>(api, 'GET', `/analytics/export/warehouse/${id}`, { key: admin })).body;
  /** Queues an export, runs the queue, returns the final status. */
  async function exportNow(json: unknown): Promise<Status> {
    const queued = await post(json);
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    assert.equal(queued.body.status, 'queued');
    await runWarehouseExportPass(worker);
    return status(queued.body.id);
  }
  /** The source rows as figures leave the service (doubles rounded as on every route: onTheWire). */
  const source = async <T>(sql: string) =>
    onTheWire((await services().db.query<T & pg.QueryResultRow>(sql, [projectId])).rows) as T[];

  before(async () => {
    api = await startTestApi();
    const project = await newProject(['admin']);
    [admin, projectId] = [project.keys[0]!, project.projectId];
    // The destination server is this machine's: allow-listed, as an operator would for an internal warehouse.
    worker = {
      ...services(),
      config: { ...services().config, duckdbDir, warehouseAllowHosts: ['127.0.0.1', 'localhost'] },
    };
    const db = services().db;
    await db.query(
      `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                               kafka_partition, kafka_offset)
       select $1, 'm' || i, 'u' || (i % 50), 'click', jsonb_build_object('i', i, 'text', 'a,"b"' || chr(10) || 'c'),
              '2025-06-01'::timestamptz + i * interval '1.000123 second', now(), 0, i
       from generate_series(1, $2::int) i`,
      [projectId, EVENTS],
    );
    await db.query(
      `insert into users (project_id, user_id, properties)
       select $1, 'u' || i, jsonb_build_object('plan', case when i % 2 = 0 then 'pro' else 'free' end)
       from generate_series(0, 49) i`,
      [projectId],
    );
    await db.query(
      `insert into feature_user_daily (project_id, feature, user_id, day, sessions_visible, impressions, uses,
                                       empty_state_impressions, data_volume_sum, data_volume_n)
       select $1, 'f' || (i % 3), 'u' || i, '2025-06-01'::date + (i % 4), 1, 2, i % 2, 0, i * 1.5, 1
       from generate_series(0, 49) i`,
      [projectId],
    );
    const admin_ = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, 'postgres') });
    await admin_.connect();
    await admin_.query(`drop database if exists ${pg.escapeIdentifier(destDb)} with (force)`);
    await admin_.query(`create database ${pg.escapeIdentifier(destDb)}`);
    await admin_.end();
    dest = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, destDb) });
    await dest.connect();

    // Workflows as the pipeline leaves them: sessions and their events, goals declared, one pass of the worker.
    await db.query(
      `insert into session_events (project_id, user_id, message_id, occurred_at, received_at, kafka_offset, event, properties)
       select $1, e.user_id, 'wf' || o, e.at, e.at, o, e.event,
              case when e.page is null then '{}'::jsonb else jsonb_build_object('page', e.page) end
       from rows from (jsonb_to_recordset($2::jsonb) as (user_id text, event text, page text, at timestamptz))
            with ordinality as e(user_id, event, page, at, o)`,
      [projectId, JSON.stringify(workflowSessions())],
    );
    await db.query(
      `insert into sessions (project_id, session_id, user_id, day, started_at, ended_at, events, contribution)
       select project_id, 's-' || user_id, user_id, min(occurred_at)::date, min(occurred_at), max(occurred_at),
              count(*), '{}'::jsonb
       from session_events where project_id = $1 group by project_id, user_id`,
      [projectId],
    );
    const goals = await call(api, 'PUT', '/settings/goals', { key: admin, json: { goals: ['signup', 'upgrade'] } });
    assert.equal(goals.status, 200, JSON.stringify(goals.body));
    assert.equal(await refreshWorkflows(services(), projectId), 2);
  });

  after(async () => {
    await dest.end();
    const admin_ = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, 'postgres') });
    await admin_.connect();
    await admin_.query(`drop database if exists ${pg.escapeIdentifier(destDb)} with (force)`);
    await admin_.end();
    fs.rmSync(duckdbDir, { recursive: true, force: true });
    const tables = ['raw_events', 'users', 'feature_user_daily', 'sessions', 'session_events', 'workflow_goals'];
    for (const table of [...tables, 'workflow_changes']) {
      await services().db.query(`delete from ${table} where project_id = $1`, [projectId]);
    }
    await api.close();
    await closeServices();
  });

  const SAMPLE_EVENTS = `select message_id, user_id, event, occurred_at, received_at, properties from %s
                         where project_id = $1 and message_id in ('m1', 'm5000', 'm12345') order by message_id`;
  const FEATURES = `select feature, day::text as day, count(*)::int as users_saw, (count(*) filter (where uses > 0))::int as users_used,
                           sum(impressions)::int as impressions, sum(data_volume_sum)::float8 as data_volume_sum
                    from feature_user_daily where project_id = $1 group by 1, 2 order by 1, 2`;

  it('copies events, users and features to Postgres; a re-run replaces them', async () => {
    const done = await exportNow({
      destination: 'postgres',
      credentials: pgCredentials,
      tables: ['events', 'users', 'features'],
    });
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.deepEqual(done.row_counts, { events: EVENTS, users: 50, features: 12 });
    assert.ok(done.started_at && done.finished_at && done.finished_at >= done.started_at);
    assert.equal(done.error, null);
    assert.ok(!('credentials' in done), 'no credentials in the status');

    const counts = async () =>
      (
        await dest.query<{ e: number; u: number; f: number }>(
          `select (select count(*) from analytics.pi_events where project_id = $1)::int as e,
                  (select count(*) from analytics.pi_users where project_id = $1)::int as u,
                  (select count(*) from analytics.pi_features where project_id = $1)::int as f`,
          [projectId],
        )
      ).rows[0];
    assert.deepEqual(await counts(), { e: EVENTS, u: 50, f: 12 });
    assert.deepEqual(
      (await dest.query(SAMPLE_EVENTS.replace('%s', 'analytics.pi_events'), [projectId])).rows,
      await source(SAMPLE_EVENTS.replace('%s', 'raw_events')),
    );
    assert.deepEqual(
      (
        await dest.query(
          `select user_id, properties, created_at, updated_at from analytics.pi_users where project_id = $1 order by user_id`,
          [projectId],
        )
      ).rows,
      await source(
        'select user_id, properties, created_at, updated_at from users where project_id = $1 order by user_id',
      ),
    );
    assert.deepEqual(
      (
        await dest.query(
          `select feature, day::text as day, users_saw::int, users_used::int, impressions::int, data_volume_sum
           from analytics.pi_features where project_id = $1 order by 1, 2`,
          [projectId],
        )
      ).rows,
      await source(FEATURES),
    );

    const again = await exportNow({
      destination: 'postgres',
      credentials: pgCredentials,
      tables: ['events', 'users', 'features'],
    });
    assert.equal(again.status, 'succeeded');
    assert.deepEqual(await counts(), { e: EVENTS, u: 50, f: 12 });
    const ids = await dest.query<{ export_id: string }>(
      'select distinct export_id from analytics.pi_events where project_id = $1',
      [projectId],
    );
    assert.deepEqual(ids.rows, [{ export_id: again.id }], 'every row is from the latest run');
  });

  it('a failed run leaves the previous rows as they were', async () => {
    const before = await dest.query(
      'select export_id, count(*)::int as n from analytics.pi_events where project_id = $1 group by 1',
      [projectId],
    );
    // The destination refuses one user: events are replaced first, then users fail in the same transaction.
    await dest.query(`alter table analytics.pi_users add constraint no_u7 check (user_id <> 'u7') not valid`);
    try {
      const failed = await exportNow({
        destination: 'postgres',
        credentials: pgCredentials,
        tables: ['events', 'users'],
      });
      assert.equal(failed.status, 'failed');
      assert.match(failed.error!, /no_u7/);
      assert.deepEqual(failed.row_counts, {});
    } finally {
      await dest.query('alter table analytics.pi_users drop constraint no_u7');
    }
    assert.deepEqual(
      (
        await dest.query(
          'select export_id, count(*)::int as n from analytics.pi_events where project_id = $1 group by 1',
          [projectId],
        )
      ).rows,
      before.rows,
    );
  });

  it('fails with the reason when the Postgres host cannot be reached, without leaking the password or addresses', async () => {
    const failed = await exportNow({
      destination: 'postgres',
      credentials: { ...pgCredentials, account: '127.0.0.1:1', password: 'hunter2-secret' },
      tables: ['users'],
    });
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /ECONNREFUSED/);
    assert.ok(!JSON.stringify(failed).includes('hunter2'));
    assert.doesNotMatch(failed.error!, /127\.0\.0\.1/, 'the failure names no address');
  });

  it('refuses a private or loopback Postgres host that the operator did not allow-list (SSRF)', async () => {
    const strict = { ...worker, config: { ...worker.config, warehouseAllowHosts: [] } };
    const queued = await call<{ id: string }>(api, 'POST', '/analytics/export/warehouse', {
      key: admin,
      json: { destination: 'postgres', credentials: pgCredentials, tables: ['users'] },
    });
    assert.equal(queued.status, 202);
    await runWarehouseExportPass(strict);
    const status = await call<{ status: string; error: string }>(
      api,
      'GET',
      `/analytics/export/warehouse/${queued.body.id}`,
      { key: admin },
    );
    assert.equal(status.body.status, 'failed');
    assert.match(status.body.error, /private or loopback/);
  });

  it("copies to a DuckDB file inside the project's own folder of the export folder; a re-run leaves the same counts", async () => {
    const request = {
      destination: 'duckdb',
      credentials: { database: 'team/pi.duckdb' },
      tables: ['events', 'users', 'features'],
    };
    const first = await exportNow(request);
    assert.equal(first.status, 'succeeded', first.error ?? '');
    assert.deepEqual(first.row_counts, { events: EVENTS, users: 50, features: 12 });
    const second = await exportNow(request);
    assert.equal(second.status, 'succeeded', second.error ?? '');

    const instance = await DuckDBInstance.create(path.join(duckdbDir, projectId, 'team/pi.duckdb'));
    const duck = await instance.connect();
    try {
      const read = async (sql: string) => (await duck.runAndReadAll(sql, [projectId])).getRowObjectsJson();
      assert.deepEqual(
        await read(`select (select count(*) from pi_events where project_id = $1)::int as e,
                           (select count(*) from pi_users where project_id = $1)::int as u,
                           (select count(*) from pi_features where project_id = $1)::int as f,
                           (select count(distinct export_id) from pi_events)::int as runs`),
        [{ e: EVENTS, u: 50, f: 12, runs: 1 }],
      );
      const sample = await read(
        `select message_id, user_id, event, epoch_us(occurred_at)::varchar as occurred_us, properties::varchar as properties
         from pi_events where project_id = $1 and message_id in ('m1', 'm5000', 'm12345') order by message_id`,
      );
      assert.deepEqual(
        sample,
        await source(`select message_id, user_id, event,
                             (extract(epoch from occurred_at) * 1000000)::bigint::text as occurred_us, properties::text as properties
                      from raw_events where project_id = $1 and message_id in ('m1', 'm5000', 'm12345') order by message_id`),
      );
      assert.deepEqual(
        await read(`select feature, day::varchar as day, users_saw::int as users_saw, users_used::int as users_used,
                           impressions::int as impressions, data_volume_sum from pi_features where project_id = $1 order by 1, 2`),
        await source(FEATURES),
      );
    } finally {
      duck.closeSync();
      instance.closeSync();
    }
  });

  it('copies workflows to Postgres and DuckDB as the source has them; a re-run leaves the same counts', async () => {
    const WORKFLOW_COLUMNS = `goal, workflow_id, rank::int as rank, path, occurrences::int as occurrences, frequency,
                              users::int as users, user_share, completion_rate, avg_time_seconds, efficiency_score,
                              optimal_steps::int as optimal_steps, actual_avg_steps`;
    const expected = await source<{ goal: string; path: string[] }>(
      `select ${WORKFLOW_COLUMNS} from workflows where project_id = $1 order by goal, rank`,
    );
    // The data above has what a workflow can hold: both goals, a capped path, the "other" workflow.
    assert.deepEqual([...new Set(expected.map((w) => w.goal))], ['signup', 'upgrade']);
    assert.ok(expected.some((w) => w.path.includes('...')));
    assert.ok(expected.some((w) => w.path[0] === 'other'));
    const count = expected.length;

    for (const destination of ['postgres', 'duckdb'] as const) {
      const request = {
        destination,
        credentials: destination === 'postgres' ? pgCredentials : { database: 'workflows.duckdb' },
        tables: ['workflows'],
      };
      const first = await exportNow(request);
      assert.equal(first.status, 'succeeded', first.error ?? '');
      assert.deepEqual(first.row_counts, { workflows: count }, destination);
      const again = await exportNow(request);
      assert.equal(again.status, 'succeeded', again.error ?? '');
      assert.deepEqual(again.row_counts, { workflows: count }, destination);

      let rows: unknown[];
      let runs: unknown[];
      if (destination === 'postgres') {
        rows = (
          await dest.query(
            `select ${WORKFLOW_COLUMNS} from analytics.pi_workflows where project_id = $1 order by goal, rank`,
            [projectId],
          )
        ).rows;
        runs = (
          await dest.query('select distinct export_id from analytics.pi_workflows where project_id = $1', [projectId])
        ).rows;
      } else {
        const instance = await DuckDBInstance.create(path.join(duckdbDir, projectId, 'workflows.duckdb'));
        const duck = await instance.connect();
        try {
          const read = async (sql: string) => (await duck.runAndReadAll(sql, [projectId])).getRowObjectsJson();
          // The JSON path reads back as a list of steps in DuckDB.
          rows = await read(
            `select ${WORKFLOW_COLUMNS.replace('path', 'path::VARCHAR[] as path')}
             from pi_workflows where project_id = $1 order by goal, rank`,
          );
          runs = await read('select distinct export_id from pi_workflows where project_id = $1');
        } finally {
          duck.closeSync();
          instance.closeSync();
        }
      }
      assert.deepEqual(rows, expected, destination);
      assert.deepEqual(runs, [{ export_id: again.id }], `${destination}: every row is from the latest run`);
    }
  });

  it('refuses paths out of the DuckDB folder, unknown tables and bad accounts with 400', async () => {
    for (const [json, field, reason] of [
      [
        { destination: 'duckdb', credentials: { database: '../escape.duckdb' }, tables: ['events'] },
        'credentials.database',
        'path_outside_folder',
      ],
      [
        { destination: 'duckdb', credentials: { database: '/tmp/abs.duckdb' }, tables: ['events'] },
        'credentials.database',
        'path_outside_folder',
      ],
      [
        { destination: 'duckdb', credentials: { database: 'a.duckdb' }, tables: ['users', 'sessions'] },
        'tables[1]',
        'invalid_value',
      ],
      [
        { destination: 'postgres', credentials: { database: 'd' }, tables: ['users'] },
        'credentials.account',
        'required',
      ],
      [
        { destination: 'postgres', credentials: { account: 'h:99999', database: 'd' }, tables: ['users'] },
        'credentials.account',
        'invalid_format',
      ],
      [
        { destination: 'postgres', credentials: { account: 'h', database: 'd', schema: 'a-b' }, tables: ['users'] },
        'credentials.schema',
        'invalid_format',
      ],
    ] as const) {
      const reply = await post(json);
      assert.equal(reply.status, 400, JSON.stringify(json));
      const error = errorOf(reply);
      assert.deepEqual([error.details.field, error.details.reason], [field, reason], JSON.stringify(json));
    }
    assert.ok(!fs.existsSync(path.join(duckdbDir, '..', 'escape.duckdb')));
  });

  it('shares the queue between workers (SKIP LOCKED) and runs it on a timer', async () => {
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.push(
        (await post({ destination: 'duckdb', credentials: { database: `${name}.duckdb` }, tables: ['users'] })).body.id,
      );
    }
    const ran = await Promise.all([runWarehouseExportPass(worker), runWarehouseExportPass(worker)]);
    assert.equal(ran[0] + ran[1], 3, 'each export ran once');
    for (const id of ids) assert.equal((await status(id)).status, 'succeeded');

    const timed = await startWarehouseExportWorker({ ...worker, config: { ...worker.config, pollIntervalMs: 100 } });
    try {
      const queued = await post({
        destination: 'duckdb',
        credentials: { database: 'timer.duckdb' },
        tables: ['features'],
      });
      const done = await waitFor('the timed worker to run the export', async () => {
        const s = await status(queued.body.id);
        return s.status === 'succeeded' && s;
      });
      assert.deepEqual(done.row_counts, { features: 12 });
    } finally {
      await timed.stop();
    }
  });
});
