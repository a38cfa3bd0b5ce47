import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningApi } from '../../api/server.js';
import { RETENTION_DEFAULTS } from '../../domain/retention.js';
import type { Services } from '../../lib/services.js';
import { inTransaction } from '../../lib/db.js';
import { rawSink } from '../../processors/raw-sink/runner.js';
import { runRetentionPass } from '../../workers/retention/worker.js';
import { call, closeServices, count, errorOf, newProject, services, startTestApi, partitionWrites } from './helpers.js';

const DAY = 86_400_000;

describe('retention per project', () => {
  let api: RunningApi;
  let worker: Services;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-retention-'));
  const [duckdbDir, parquetDir] = [path.join(dir, 'duckdb'), path.join(dir, 'parquet')];

  /** A project with one row of each aging kind `ageDays` old and one fresh, and export files of both ages. */
  async function seeded(ageDays: number) {
    const project = await newProject(['admin']);
    const { projectId } = project;
    const db = services().db;
    for (const [tag, age] of [
      ['old', ageDays],
      ['new', 0],
    ] as const) {
      const at = new Date(Date.now() - age * DAY);
      await db.query(
        `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                                 kafka_partition, kafka_offset)
         values ($1, $2, 'u', 'click', '{}', $3, $3, 0, 0)`,
        [projectId, `m-${tag}`, at],
      );
      for (const status of ['succeeded', 'pending']) {
        await db.query(
          `insert into webhook_deliveries (project_id, delivery_id, target, event, payload, status, created_at)
           values ($1, $2, 'integration', 'job.completed', '{}', $3, $4)`,
          [projectId, `d-${tag}-${status}`, status, at],
        );
      }
      await db.query(
        `insert into friction_alerts (project_id, alert_id, page, day, friction_index, users_affected, created_at)
         values ($1, $2, $2, $3::date, 1, 1, $3)`,
        [projectId, `a-${tag}`, at],
      );
      await db.query(
        `insert into reports (project_id, report_id, name, type, format, schedule, recipients)
         values ($1, $2, 'r', 'friction', 'csv', 'weekly', '{a@example.com}')`,
        [projectId, `r-${tag}`],
      );
      for (const status of ['sent', 'queued']) {
        await db.query(
          `insert into report_runs (project_id, report_id, run_id, trigger, period_start, period_end, status,
                                    recipients, created_at)
           values ($1, $2, $3, 'manual', $4::date, $4::date, $5, '{a@example.com}', $4)`,
          [projectId, `r-${tag}`, `run-${tag}-${status}`, at, status],
        );
      }
      const folder = path.join(parquetDir, projectId, tag, 'events');
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'part-0.parquet'), 'x');
      fs.utimesSync(path.join(folder, 'part-0.parquet'), at, at);
    }
    return project;
  }

  const rowsOf = async (projectId: string) => ({
    raw_events: await count('select 1 from raw_events where project_id = $1', [projectId]),
    webhook_deliveries: await count('select 1 from webhook_deliveries where project_id = $1', [projectId]),
    friction_alerts: await count('select 1 from friction_alerts where project_id = $1', [projectId]),
    report_runs: await count('select 1 from report_runs where project_id = $1', [projectId]),
    parquet: ['old', 'new'].filter((tag) => fs.existsSync(path.join(parquetDir, projectId, tag))),
  });

  before(async () => {
    api = await startTestApi();
    worker = { ...services(), config: { ...services().config, duckdbDir, parquetDir } };
  });

  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await api.close();
    await closeServices();
  });

  it('keeps the defaults until a project sets its own; refuses bad settings with 400', async () => {
    const { keys } = await newProject(['admin']);
    const got = await call<{ effective: unknown }>(api, 'GET', '/settings/retention', { key: keys[0]! });
    assert.deepEqual(got.body, { overrides: {}, effective: RETENTION_DEFAULTS });
    const bad = await call(api, 'PUT', '/settings/retention', { key: keys[0]!, json: { rawEventsDays: 0 } });
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad).details.field, 'rawEventsDays');
    const unknown = await call(api, 'PUT', '/settings/retention', { key: keys[0]!, json: { forever: 1 } });
    assert.equal(unknown.status, 400);
    const put = await call(api, 'PUT', '/settings/retention', { key: keys[0]!, json: { alertsDays: 7 } });
    assert.deepEqual(put.body, { overrides: { alertsDays: 7 }, effective: { ...RETENTION_DEFAULTS, alertsDays: 7 } });
  });

  it("deletes each project's aged rows and export files by its own settings; pending work and fresh data stay", async () => {
    const strict = await seeded(3);
    const lenient = await seeded(3);
    const days = { rawEventsDays: 2, webhookDeliveriesDays: 2, reportRunsDays: 2, alertsDays: 2, exportFilesDays: 2 };
    const put = await call(api, 'PUT', '/settings/retention', { key: strict.keys[0]!, json: days });
    assert.equal(put.status, 200);
    // A DuckDB file in the strict project's folder and one in the lenient's, both last written 3 days ago, and one
    // in the shared folder (written before files were per project) that the strict project's export names.
    const old = new Date(Date.now() - 3 * DAY);
    for (const file of [
      path.join(strict.projectId, 'strict.duckdb'),
      path.join(lenient.projectId, 'strict.duckdb'),
      'strict.duckdb',
    ]) {
      fs.mkdirSync(path.dirname(path.join(duckdbDir, file)), { recursive: true });
      fs.writeFileSync(path.join(duckdbDir, file), 'x');
      fs.utimesSync(path.join(duckdbDir, file), old, old);
    }
    await services().db.query(
      `insert into warehouse_exports (project_id, export_id, destination, credentials, tables, status)
       values ($1, 'exp-r', 'duckdb', '{"database": "strict.duckdb"}', '{users}', 'succeeded')`,
      [strict.projectId],
    );

    const before = await rowsOf(lenient.projectId);
    const deleted = await runRetentionPass(worker);
    assert.deepEqual(await rowsOf(strict.projectId), {
      raw_events: 1,
      webhook_deliveries: 3, // the old pending one stays
      friction_alerts: 1,
      report_runs: 3, // the old queued one stays
      parquet: ['new'],
    });
    assert.deepEqual(await rowsOf(lenient.projectId), before, 'the defaults keep 3-day-old data');
    assert.ok(!fs.existsSync(path.join(duckdbDir, strict.projectId, 'strict.duckdb')));
    assert.ok(fs.existsSync(path.join(duckdbDir, lenient.projectId, 'strict.duckdb')), "another project's is kept");
    assert.ok(fs.existsSync(path.join(duckdbDir, 'strict.duckdb')), 'a name never reaches outside the folder');
    assert.ok(deleted.raw_events! >= 1 && deleted.files! >= 2);
    // A second pass finds nothing more.
    const again = await runRetentionPass(worker);
    assert.equal(again.raw_events, 0);

    // A replay does not bring back what retention deleted: the raw sink skips events that old.
    const event = (message_id: string, ageDays: number) => ({
      partition: 0,
      offset: 0,
      key: null,
      value: {
        project_id: strict.projectId,
        message_id,
        user_id: 'u',
        event: 'click',
        timestamp: Date.now() - ageDays * DAY,
        received_at: Date.now(),
        properties: '{}',
      },
    });
    await inTransaction(services().db, (client) =>
      rawSink.write(client, [event('replayed-old', 3), event('replayed-new', 1)], partitionWrites()(2)),
    );
    const { rows } = await services().db.query<{ message_id: string }>(
      `select message_id from raw_events where project_id = $1 and message_id like 'replayed-%'`,
      [strict.projectId],
    );
    assert.deepEqual(
      rows.map((r) => r.message_id),
      ['replayed-new'],
    );
  });

  it("an erasure deletes the project's export files written before it (they may hold the user), not later ones", async () => {
    const { projectId, keys } = await newProject(['admin']);
    const file = (...parts: string[]) => path.join(parquetDir, projectId, ...parts);
    const written = (full: string, at: Date) => {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, 'x');
      fs.utimesSync(full, at, at);
    };
    const before = new Date(Date.now() - 60_000);
    written(file('wh', 'events', 'day=2026-11-01', 'part-0.parquet'), before);
    written(path.join(duckdbDir, projectId, 'erased.duckdb'), before);
    // Named by the project's export, but in the shared folder: not the project's to delete.
    written(path.join(duckdbDir, 'erased.duckdb'), before);
    await services().db.query(
      `insert into warehouse_exports (project_id, export_id, destination, credentials, tables, status)
       values ($1, 'exp-e', 'duckdb', '{"database": "erased.duckdb"}', '{events}', 'succeeded')`,
      [projectId],
    );
    const erased = await call(api, 'DELETE', '/users/someone', { key: keys[0]! });
    assert.equal(erased.status, 200);
    // An export that ran after the erasure (no longer holding the user).
    written(file('later', 'users', 'part-0.parquet'), new Date(Date.now() + 60_000));

    await runRetentionPass(worker);
    assert.ok(!fs.existsSync(file('wh')), 'the Parquet files from before the erasure are gone');
    assert.ok(!fs.existsSync(path.join(duckdbDir, projectId, 'erased.duckdb')), "and the project's DuckDB files");
    assert.ok(fs.existsSync(path.join(duckdbDir, 'erased.duckdb')), 'a file outside its folder stays');
    assert.ok(fs.existsSync(file('later', 'users', 'part-0.parquet')), 'a later export stays');
    assert.equal(await count('select 1 from export_file_purges where project_id = $1', [projectId]), 0);
  });
});
