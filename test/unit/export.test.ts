import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { checkCredentials, duckdbFile, parseAccount, projectDuckdbFile } from '../../domain/exports/credentials.js';
import { toColumnArrays } from '../../workers/warehouse-export/postgres-writer.js';
import {
  type ExportFormat,
  type RawExportRow,
  chooseFormat,
  exportEnd,
  exportFileName,
  exportStart,
  formatBatch,
  rawExportQuery,
} from '../../domain/exports/raw-events.js';
import { WAREHOUSE_TABLES, createTableSql, destinationColumns } from '../../workers/warehouse-export/tables.js';
import { publicError } from '../../workers/warehouse-export/worker.js';

const row = (i: number, properties: object, extra: Partial<RawExportRow> = {}): RawExportRow => ({
  message_id: `m-${i}`,
  user_id: `u-${i % 3}`,
  event: 'click',
  occurred_at: new Date(Date.UTC(2026, 2, 1, 10, 0, i)),
  received_at: new Date(Date.UTC(2026, 2, 1, 10, 0, i, 500)),
  properties: JSON.stringify(properties),
  ...extra,
});

/** A whole file as the route writes it: start, batches, end. */
function file(format: ExportFormat, batches: RawExportRow[][]): string {
  let text = exportStart(format);
  let before = 0;
  for (const batch of batches) {
    text += formatBatch(format, batch, before);
    before += batch.length;
  }
  return text + exportEnd(format);
}

const asObject = (r: RawExportRow) => ({
  message_id: r.message_id,
  user_id: r.user_id,
  event: r.event,
  occurred_at: r.occurred_at.toISOString(),
  received_at: r.received_at.toISOString(),
  properties: JSON.parse(r.properties) as unknown,
});

describe('raw-event export (pure parts)', () => {
  const tricky = [
    row(1, { page: '/a,b', label: 'say "hi"', note: 'line1\nline2\r\nline3' }),
    row(2, {}, { user_id: 'user, with "comma"', event: 'multi\nline' }),
    row(3, { n: 1.5, nested: { list: [1, null, 'x'] }, unicode: 'é✓😀' }),
  ];
  const batchings = [[tricky], [tricky.slice(0, 1), [], tricky.slice(1)], [[], ...tricky.map((r) => [r])], []];

  for (const batches of batchings) {
    const rows = batches.flat();
    const label = `${batches.length} batches of ${batches.map((b) => b.length).join('+') || 'none'}`;

    it(`CSV has a header, quotes commas, quotes and line breaks, and parses back (${label})`, () => {
      const text = file('csv', batches);
      assert.ok(text.startsWith('message_id,user_id,event,occurred_at,received_at,properties\r\n'));
      const records = parse<Record<string, string>>(text, { columns: true });
      assert.deepEqual(
        records.map((r) => ({ ...r, properties: JSON.parse(r.properties!) as unknown })),
        rows.map(asObject),
      );
    });

    it(`JSON is one array whatever the batching (${label})`, () => {
      assert.deepEqual(JSON.parse(file('json', batches)), rows.map(asObject));
    });

    it(`NDJSON is one object per line (${label})`, () => {
      const text = file('ndjson', batches);
      assert.equal(text.split('\n').length - 1, rows.length);
      assert.deepEqual(
        text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as unknown),
        rows.map(asObject),
      );
    });
  }

  it('quotes a field that holds a lone CR or LF, not only CRLF', () => {
    const line = formatBatch('csv', [row(1, {}, { event: 'a\nb' }), row(2, {}, { event: 'c\rd' })], 0);
    assert.match(line, /,"a\nb",/);
    assert.match(line, /,"c\rd",/);
  });

  it('neutralises cells a spreadsheet would run as formulas, and they read back with a leading quote', () => {
    const starts = ['=', '+', '-', '@', '\t', '\r', '\uFF1D'];
    const rows = starts.map((c, i) =>
      row(i, { note: `${c}1+1` }, { message_id: `${c}cmd|' /C calc'!A0`, user_id: `${c}u`, event: `${c}SUM(A1)` }),
    );
    const records = parse<Record<string, string>>(file('csv', [rows]), { columns: true });
    assert.deepEqual(
      records.map((r) => [r.message_id, r.user_id, r.event]),
      rows.map((r) => [`'${r.message_id}`, `'${r.user_id}`, `'${r.event}`]),
    );
    // The properties cell is a JSON object: it starts with { and stays parseable as it was.
    assert.deepEqual(
      records.map((r) => JSON.parse(r.properties!) as unknown),
      starts.map((c) => ({ note: `${c}1+1` })),
    );
    const plain = parse<Record<string, string>>(file('csv', [[row(9, {}, { user_id: 'u=1', event: 'a-b' })]]), {
      columns: true,
    });
    assert.deepEqual([plain[0]!.user_id, plain[0]!.event], ['u=1', 'a-b'], 'only a leading character counts');
  });

  it('takes format from the parameter, else NDJSON from Accept, else nothing', () => {
    assert.equal(chooseFormat('csv', 'application/x-ndjson'), 'csv');
    assert.equal(chooseFormat(undefined, 'application/x-ndjson'), 'ndjson');
    assert.equal(chooseFormat(undefined, 'text/html, application/X-NDJSON; q=0.9'), 'ndjson');
    assert.equal(chooseFormat(undefined, 'application/json'), undefined);
    assert.equal(chooseFormat(undefined, undefined), undefined);
  });

  it('names the file after the range and format', () => {
    assert.equal(exportFileName('csv', { start: '2026-03-01', end: '2026-03-07' }), 'events_2026-03-01_2026-03-07.csv');
    assert.equal(
      exportFileName('ndjson', { start: '2026-03-01', end: '2026-03-01' }),
      'events_2026-03-01_2026-03-01.ndjson',
    );
  });

  it('selects the UTC days of the range, both ends included, and the event names', () => {
    const q = rawExportQuery('p', { start: '2026-02-28', end: '2026-03-01' }, ['a', 'b']);
    assert.deepEqual(q.values, ['p', '2026-02-28T00:00:00.000Z', '2026-03-02T00:00:00.000Z', ['a', 'b']]);
    assert.match(q.text, /order by occurred_at, message_id/);
    const leap = rawExportQuery('p', { start: '2024-02-28', end: '2024-02-29' }, []);
    assert.equal(leap.values[2], '2024-03-01T00:00:00.000Z');
  });
});

describe('warehouse export (pure parts)', () => {
  const dir = '/var/pi/duckdb';

  it('keeps DuckDB files inside the export folder', () => {
    for (const [name, file] of [
      ['pi.duckdb', `${dir}/pi.duckdb`],
      ['team/a.duckdb', `${dir}/team/a.duckdb`],
      ['team/../b.duckdb', `${dir}/b.duckdb`],
      ['./c.duckdb', `${dir}/c.duckdb`],
      ['..x.duckdb', `${dir}/..x.duckdb`],
    ]) {
      assert.deepEqual(duckdbFile(dir, name!), { file: file }, name);
    }
    for (const name of ['../x.duckdb', '/etc/passwd', 'a/../../x.duckdb', '..', '.', 'a/..', 'dir/', 'a\0b']) {
      const result = duckdbFile(dir, name);
      assert.ok('reason' in result, name);
      assert.deepEqual([result.field, result.reason], ['credentials.database', 'path_outside_folder'], name);
    }
    assert.equal(
      (duckdbFile('relative/dir', 'x.duckdb') as { file: string }).file,
      path.resolve('relative/dir/x.duckdb'),
    );
  });

  it("resolves a project's DuckDB file in its own folder: no name reaches another project's file", () => {
    const [a, b] = ['0b6c8f9e-4c1a-4d5e-9f00-2a1b3c4d5e6f', '7d1e2f3a-0000-4000-8000-00000000000b'];
    assert.deepEqual(projectDuckdbFile(dir, a, 'shared.duckdb'), { file: `${dir}/${a}/shared.duckdb` });
    assert.deepEqual(projectDuckdbFile(dir, b, 'shared.duckdb'), { file: `${dir}/${b}/shared.duckdb` });
    // B's folder named from inside A's is a folder of A's; climbing out to B's is refused.
    assert.deepEqual(projectDuckdbFile(dir, a, `${b}/shared.duckdb`), { file: `${dir}/${a}/${b}/shared.duckdb` });
    for (const name of [`../${b}/shared.duckdb`, `x/../../${b}/shared.duckdb`, `${dir}/${b}/shared.duckdb`, '..']) {
      assert.equal((projectDuckdbFile(dir, a, name) as { reason?: string }).reason, 'path_outside_folder', name);
    }
    // A project id is never a path of its own.
    for (const id of ['..', '.', 'a/b', '', `${a}/..`]) assert.throws(() => projectDuckdbFile(dir, id, 'x.duckdb'), id);
  });

  it('reads host[:port] accounts', () => {
    assert.deepEqual(parseAccount('db.example.com'), { host: 'db.example.com', port: 5432 });
    assert.deepEqual(parseAccount('127.0.0.1:5433'), { host: '127.0.0.1', port: 5433 });
    assert.deepEqual(parseAccount('[::1]:6543'), { host: '::1', port: 6543 });
    for (const bad of ['', 'host:0', 'host:70000', 'host:port', 'a b', 'postgres://x/y', '::1']) {
      assert.ok('reason' in parseAccount(bad), bad);
    }
  });

  it('checks credentials per destination', () => {
    assert.equal(checkCredentials('duckdb', { database: 'a.duckdb' }), undefined);
    assert.equal(checkCredentials('postgres', { account: 'h:1', database: 'd', schema: 'analytics_1' }), undefined);
    assert.equal(checkCredentials('postgres', { database: 'd' })?.reason, 'required');
    assert.equal(checkCredentials('duckdb', { database: '../a' })?.reason, 'path_outside_folder');
    assert.equal(checkCredentials('duckdb', { database: 'a', schema: 'x"; drop' })?.field, 'credentials.schema');
    assert.equal(
      checkCredentials('postgres', { account: 'h', database: 'd', schema: 'a'.repeat(64) })?.field,
      'credentials.schema',
    );
  });

  it('maps each table to a destination table with project_id, export_id and a key', () => {
    assert.deepEqual(
      Object.values(WAREHOUSE_TABLES).map((t) => t.target),
      ['pi_events', 'pi_users', 'pi_features', 'pi_workflows'],
    );
    // Every table a request may name is exported (the worker looks requested names up here).
    const schema = JSON.parse(fs.readFileSync('schemas/warehouse-export.json', 'utf8')) as {
      properties: { tables: { items: { enum: string[] } } };
    };
    assert.deepEqual(Object.keys(WAREHOUSE_TABLES), schema.properties.tables.items.enum);
    assert.deepEqual(
      destinationColumns(WAREHOUSE_TABLES.events).map((c) => c.name),
      ['project_id', 'export_id', 'message_id', 'user_id', 'event', 'occurred_at', 'received_at', 'properties'],
    );
    assert.equal(
      createTableSql(WAREHOUSE_TABLES.users, 'main', 'duckdb'),
      'create table if not exists "main"."pi_users" ("project_id" UUID not null, "export_id" VARCHAR not null, ' +
        '"user_id" VARCHAR not null, "properties" JSON not null, "created_at" TIMESTAMPTZ not null, ' +
        '"updated_at" TIMESTAMPTZ not null, primary key ("project_id", "user_id"))',
    );
    assert.match(
      createTableSql(WAREHOUSE_TABLES.features, 'public', 'postgres'),
      /"day" date not null.*primary key \("project_id", "feature", "day"\)/,
    );
    assert.match(
      createTableSql(WAREHOUSE_TABLES.workflows, 'public', 'postgres'),
      /"rank" bigint not null, "path" jsonb not null, .*primary key \("project_id", "workflow_id"\)/,
    );
    assert.match(createTableSql(WAREHOUSE_TABLES.workflows, 'main', 'duckdb'), /"path" JSON not null/);
  });

  it('transposes rows into column arrays', () => {
    assert.deepEqual(
      toColumnArrays(
        [
          ['a', 1],
          ['b', 2],
        ],
        2,
      ),
      [
        ['a', 'b'],
        [1, 2],
      ],
    );
    assert.deepEqual(toColumnArrays([], 3), [[], [], []]);
  });

  it('never lets the password into an error message', () => {
    const creds = { database: 'd', password: 's3cret' };
    assert.equal(publicError(new Error('auth failed for s3cret and s3cret'), creds), 'auth failed for *** and ***');
    assert.equal(publicError('plain', creds), 'plain');
    assert.equal(publicError(new TypeError(''), creds), 'TypeError');
  });
});
