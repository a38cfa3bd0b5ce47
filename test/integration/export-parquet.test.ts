import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { type FileMetaData, asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import type pg from 'pg';
import type { RunningApi } from '../../api/server.js';
import type { Services } from '../../lib/services.js';
import { runWarehouseExportPass } from '../../workers/warehouse-export/worker.js';
import { call, closeServices, errorOf, newProject, services, startTestApi } from './helpers.js';

interface Status {
  id: string;
  status: string;
  row_counts: Record<string, number>;
  error: string | null;
}

type Row = Record<string, unknown>;

const EVENTS = 7_000; // more than one worker batch, over three UTC days

/** Every .parquet file under `dir`, relative, sorted. */
const parquetFiles = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.parquet'))
    .sort();

/**
 * A file's rows as an independent reader (hyparquet, pure JS) sees them: timestamps as their
 * microseconds since the epoch (exact), 64-bit integers as numbers.
 */
async function readFile(file: string): Promise<{ rows: Row[]; metadata: FileMetaData }> {
  const buffer = await asyncBufferFromFile(file);
  const metadata = await parquetMetadataAsync(buffer);
  const rows = await parquetReadObjects({
    file: buffer,
    metadata,
    parsers: { timestampFromMicroseconds: (us: bigint) => us.toString() },
  });
  const plain = rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
  );
  return { rows: plain, metadata };
}

/** Column name → its Parquet physical type and annotation, as written in the file's footer. */
const columnTypes = (metadata: FileMetaData) =>
  Object.fromEntries(
    metadata.schema.slice(1).map((c) => {
      const logical = c.logical_type;
      let note: string | undefined = logical?.type ?? c.converted_type;
      if (logical?.type === 'TIMESTAMP') note = `TIMESTAMP(${logical.unit}, utc=${logical.isAdjustedToUTC})`;
      if (note === 'UTF8') note = 'STRING';
      return [c.name, note ? `${c.type}/${note}` : c.type];
    }),
  );

/** The rows of a table folder: every file read, the Hive `day=` of its path added as `day`. */
async function readTable(folder: string): Promise<{ rows: Row[]; files: string[]; metadata: FileMetaData[] }> {
  const files = parquetFiles(folder);
  const rows: Row[] = [];
  const metadata: FileMetaData[] = [];
  for (const file of files) {
    const read = await readFile(path.join(folder, file));
    const day = /^day=(\d{4}-\d{2}-\d{2})\//.exec(file)?.[1];
    rows.push(...read.rows.map((r) => (day ? { ...r, day } : r)));
    metadata.push(read.metadata);
  }
  return { rows, files, metadata };
}

/** Orders rows by a column as Postgres's "C" collation does. */
const byKey = (key: string) => (a: Row, b: Row) => {
  const [x, y] = [String(a[key]), String(b[key])];
  return x < y ? -1 : x > y ? 1 : 0;
};
const STRING = 'BYTE_ARRAY/STRING';
const TIMESTAMP = 'INT64/TIMESTAMP(MICROS, utc=true)';
const BIGINT = 'INT64/INT_64';

describe('warehouse export to Parquet', () => {
  let api: RunningApi;
  let admin: string;
  let projectId: string;
  let worker: Services;
  const parquetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-parquet-'));
  const folder = () => path.join(parquetDir, projectId, 'lake', 'pi');
  const ALL = ['events', 'users', 'features', 'workflows'];

  const source = async <T extends pg.QueryResultRow = Row>(sql: string) =>
    (await services().db.query<T>(sql, [projectId])).rows;

  /** Queues an export, runs the queue (with the server's time zone set to `tz`), returns the final status. */
  async function exportNow(json: unknown, key = admin, tz?: string): Promise<Status> {
    const queued = await call<Status>(api, 'POST', '/analytics/export/warehouse', { key, json });
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    const saved = process.env.TZ;
    if (tz) process.env.TZ = tz;
    try {
      await runWarehouseExportPass(worker);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    return (await call<Status>(api, 'GET', `/analytics/export/warehouse/${queued.body.id}`, { key })).body;
  }

  before(async () => {
    api = await startTestApi();
    const project = await newProject(['admin']);
    [admin, projectId] = [project.keys[0]!, project.projectId];
    worker = { ...services(), config: { ...services().config, parquetDir } };
    const db = services().db;
    // Three UTC days, one event a last microsecond of a day and one its next first: the UTC day, whatever the time zone.
    await db.query(
      `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                               kafka_partition, kafka_offset)
       select $1::uuid, 'm' || i, 'u' || (i % 50), 'click',
              jsonb_build_object('i', i, 'text', 'a,"b"' || chr(10) || 'ç', 'big', 12345678901234),
              '2025-06-01 00:00:00+00'::timestamptz + i * interval '37.000123 second', now(), 0, i
       from generate_series(1, $2::int) i
       union all
       select $1::uuid, 'edge-late', 'u1', 'late', '{}', '2025-06-01 23:59:59.999999+00', now(), 0, 0
       union all
       select $1::uuid, 'edge-early', 'u2', 'early', '{}', '2025-06-02 00:00:00+00', now(), 0, 0`,
      [projectId, EVENTS - 2],
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
    await db.query(`insert into workflow_goals (project_id, goal) values ($1, 'signup')`, [projectId]);
    await db.query(
      `insert into workflows (project_id, goal, workflow_id, rank, path, occurrences, frequency, users, user_share,
                              completion_rate, avg_time_seconds, efficiency_score, optimal_steps, actual_avg_steps)
       values ($1, 'signup', 'wf-1', 1, array['/home', '/pricing', 'signup'], 12, 0.4, 9, 0.3, 0.75, 81.25, 0.9, 3, 3.5),
              ($1, 'signup', 'wf-2', 2, array['/a', '...', 'signup'], 3, 0.1, 2, 0.05, 0.5, 400.125, 0.25, 3, 11),
              ($1, 'signup', 'wf-other', 3, array['other'], 1, 0.033, 1, 0.01, 0, 0, 0, 0, 0)`,
      [projectId],
    );
  });

  after(async () => {
    for (const table of ['raw_events', 'users', 'feature_user_daily', 'workflow_goals']) {
      await services().db.query(`delete from ${table} where project_id = $1`, [projectId]);
    }
    fs.rmSync(parquetDir, { recursive: true, force: true });
    await api.close();
    await closeServices();
  });

  it('writes each table as Parquet files, partitioned by UTC day, with the rows and types of the source', async () => {
    // New York: a day cast in the server's zone would put edge-early (20:00 the day before there) in the wrong folder.
    const done = await exportNow(
      { destination: 'parquet', credentials: { database: 'lake/pi' }, tables: ALL },
      admin,
      'America/New_York',
    );
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.deepEqual(done.row_counts, { events: EVENTS, users: 50, features: 12, workflows: 3 });

    const days = (
      await source<{ day: string }>(
        `select distinct (occurred_at at time zone 'UTC')::date::text as day from raw_events where project_id = $1 order by 1`,
      )
    ).map((r) => `events/day=${r.day}/part-0.parquet`);
    const featureDays = ['2025-06-01', '2025-06-02', '2025-06-03', '2025-06-04'];
    assert.deepEqual(days.length, 3);
    assert.deepEqual(
      parquetFiles(folder()),
      [
        ...days,
        ...featureDays.map((d) => `features/day=${d}/part-0.parquet`),
        'users/part-0.parquet',
        'workflows/part-0.parquet',
      ].sort(),
    );
    assert.deepEqual(fs.readdirSync(path.join(parquetDir, '.staging')), [], 'nothing left in staging');

    const events = await readTable(path.join(folder(), 'events'));
    assert.deepEqual(
      events.rows.sort(byKey('message_id')),
      await source(`select project_id::text as project_id, '${done.id}' as export_id, message_id, user_id, event,
                            (extract(epoch from occurred_at) * 1000000)::bigint::text as occurred_at,
                            (extract(epoch from received_at) * 1000000)::bigint::text as received_at,
                            properties::text as properties, (occurred_at at time zone 'UTC')::date::text as day
                     from raw_events where project_id = $1 order by message_id collate "C"`),
    );
    const edges = events.rows.filter((r) => String(r.message_id).startsWith('edge'));
    assert.deepEqual(
      edges.map((r) => [r.message_id, r.day]),
      [
        ['edge-early', '2025-06-02'],
        ['edge-late', '2025-06-01'],
      ],
    );
    // The day is in the path only (Hive style); JSON is text, timestamps are UTC instants in microseconds.
    for (const metadata of events.metadata) {
      assert.deepEqual(columnTypes(metadata), {
        project_id: STRING,
        export_id: STRING,
        message_id: STRING,
        user_id: STRING,
        event: STRING,
        occurred_at: TIMESTAMP,
        received_at: TIMESTAMP,
        properties: STRING,
      });
    }

    const users = await readTable(path.join(folder(), 'users'));
    assert.deepEqual(
      users.rows.sort(byKey('user_id')),
      await source(`select project_id::text as project_id, '${done.id}' as export_id, user_id, properties::text as properties,
                           (extract(epoch from created_at) * 1000000)::bigint::text as created_at,
                           (extract(epoch from updated_at) * 1000000)::bigint::text as updated_at
                    from users where project_id = $1 order by user_id collate "C"`),
    );
    assert.equal(columnTypes(users.metadata[0]!).created_at, TIMESTAMP);

    const features = await readTable(path.join(folder(), 'features'));
    assert.deepEqual(
      features.rows.sort((a, b) => byKey('feature')(a, b) || byKey('day')(a, b)),
      await source(`select project_id::text as project_id, '${done.id}' as export_id, feature,
                           count(*)::int as users_saw, (count(*) filter (where uses > 0))::int as users_used,
                           sum(sessions_visible)::int as sessions_visible, sum(impressions)::int as impressions,
                           sum(uses)::int as uses, sum(empty_state_impressions)::int as empty_state_impressions,
                           sum(data_volume_sum)::float8 as data_volume_sum, sum(data_volume_n)::int as data_volume_n,
                           day::text as day
                    from feature_user_daily where project_id = $1 group by project_id, feature, day order by 3, day`),
    );
    assert.deepEqual(
      [columnTypes(features.metadata[0]!).users_saw, columnTypes(features.metadata[0]!).data_volume_sum],
      [BIGINT, 'DOUBLE'],
    );
    assert.ok(!('day' in columnTypes(features.metadata[0]!)), 'day is the partition, not a column of the file');

    const workflows = await readTable(path.join(folder(), 'workflows'));
    const expected = await source<{ path: string[] }>(
      `select project_id::text as project_id, '${done.id}' as export_id, goal, workflow_id, rank, path, occurrences, frequency,
              users, user_share, completion_rate, avg_time_seconds, efficiency_score, optimal_steps, actual_avg_steps
       from workflows where project_id = $1 order by rank`,
    );
    assert.deepEqual(
      workflows.rows
        .sort((a, b) => Number(a.rank) - Number(b.rank))
        .map((r) => ({ ...r, path: JSON.parse(String(r.path)) as unknown })),
      expected,
    );
    const wf = columnTypes(workflows.metadata[0]!);
    assert.deepEqual([wf.rank, wf.path, wf.frequency], [BIGINT, STRING, 'DOUBLE']);

    // And as a data engineer would load the folder: DuckDB with Hive partitioning.
    const instance = await DuckDBInstance.create(':memory:');
    const duck = await instance.connect();
    try {
      const glob = path.join(folder(), 'events', '**', '*.parquet').replaceAll("'", "''");
      const read = async (sql: string) => (await duck.runAndReadAll(sql)).getRowObjectsJson();
      assert.deepEqual(
        await read(`select typeof("day") as "day", typeof(occurred_at) as occurred_at, typeof(properties) as properties
                    from read_parquet('${glob}', hive_partitioning = true) limit 1`),
        [{ day: 'DATE', occurred_at: 'TIMESTAMP WITH TIME ZONE', properties: 'VARCHAR' }],
      );
      assert.deepEqual(
        await read(`select "day"::varchar as "day", count(*)::int as n from read_parquet('${glob}', hive_partitioning = true)
                    group by 1 order by 1`),
        await source(`select (occurred_at at time zone 'UTC')::date::text as day, count(*)::int as n
                      from raw_events where project_id = $1 group by 1 order by 1`),
      );
    } finally {
      duck.closeSync();
      instance.closeSync();
    }
  });

  it('a second export replaces the files of the first, its days included', async () => {
    const before = await readTable(path.join(folder(), 'users'));
    await services().db.query(
      `delete from raw_events where project_id = $1 and occurred_at >= '2025-06-03 00:00:00+00'`,
      [projectId],
    );
    const again = await exportNow({ destination: 'parquet', credentials: { database: 'lake/pi' }, tables: ['events'] });
    assert.equal(again.status, 'succeeded', again.error ?? '');
    const kept = await source<{ n: number }>('select count(*)::int as n from raw_events where project_id = $1');
    assert.deepEqual(again.row_counts, { events: kept[0]!.n });

    const events = await readTable(path.join(folder(), 'events'));
    assert.deepEqual(events.files, ['day=2025-06-01/part-0.parquet', 'day=2025-06-02/part-0.parquet']);
    assert.equal(events.rows.length, kept[0]!.n);
    assert.deepEqual([...new Set(events.rows.map((r) => r.export_id))], [again.id], 'every row is from the latest run');
    // A table the export did not name keeps its files.
    assert.deepEqual(await readTable(path.join(folder(), 'users')), before);
    assert.deepEqual(fs.readdirSync(path.join(parquetDir, '.staging')), []);
  });

  it('a failed export leaves the previous files as they were, and no staging behind', async () => {
    const before = { events: await readTable(path.join(folder(), 'events')), files: parquetFiles(folder()) };
    // Postgres keeps timestamps up to the year 294276, DuckDB up to 294247: users are staged, then events fail.
    await services().db.query(
      `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                               kafka_partition, kafka_offset)
       values ($1, 'far-future', 'u1', 'click', '{}', '294270-01-01 00:00:00+00', now(), 0, 0)`,
      [projectId],
    );
    try {
      const failed = await exportNow({
        destination: 'parquet',
        credentials: { database: 'lake/pi' },
        tables: ['users', 'events'],
      });
      assert.equal(failed.status, 'failed');
      assert.match(failed.error!, /294270/);
    } finally {
      await services().db.query(`delete from raw_events where project_id = $1 and message_id = 'far-future'`, [
        projectId,
      ]);
    }
    assert.deepEqual(parquetFiles(folder()), before.files);
    assert.deepEqual(await readTable(path.join(folder(), 'events')), before.events);
    assert.deepEqual(fs.readdirSync(path.join(parquetDir, '.staging')), []);
  });

  it("keeps projects apart: another project's export of the same folder writes its own, empty tables included", async () => {
    const files = parquetFiles(folder());
    const other = await newProject(['admin']);
    const done = await exportNow(
      { destination: 'parquet', credentials: { database: 'lake/pi' }, tables: ['events', 'users'] },
      other.keys[0],
    );
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.deepEqual(done.row_counts, { events: 0, users: 0 });
    const theirs = path.join(parquetDir, other.projectId, 'lake', 'pi');
    // No rows: no day folders, but an events folder (it replaces any earlier one) and a users file with the columns.
    assert.deepEqual(fs.readdirSync(path.join(theirs, 'events')), []);
    const users = await readFile(path.join(theirs, 'users', 'part-0.parquet'));
    assert.deepEqual([users.rows, users.metadata.num_rows], [[], 0n]);
    assert.equal(columnTypes(users.metadata).updated_at, TIMESTAMP);
    assert.deepEqual(parquetFiles(folder()), files);
  });

  it('refuses a folder outside the Parquet folder with 400, and lists parquet as supported', async () => {
    for (const database of ['../escape', '/tmp/abs', 'a/../..', '.', 'lake/']) {
      const reply = await call(api, 'POST', '/analytics/export/warehouse', {
        key: admin,
        json: { destination: 'parquet', credentials: { database }, tables: ['events'] },
      });
      assert.equal(reply.status, 400, database);
      const error = errorOf(reply);
      assert.deepEqual([error.details.field, error.details.reason], ['credentials.database', 'path_outside_folder']);
      assert.match(error.message, /folder inside the Parquet export folder/);
    }
    const unsupported = await call(api, 'POST', '/analytics/export/warehouse', {
      key: admin,
      json: { destination: 'iceberg', credentials: { database: 'x' }, tables: ['events'] },
    });
    assert.deepEqual(errorOf(unsupported).details.supported, ['postgres', 'duckdb', 'parquet']);
    assert.ok(!fs.existsSync(path.join(parquetDir, 'escape')));
  });
});
