import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkCredentials, parquetFolder } from '../../domain/exports/credentials.js';
import { copySql, swapFolder } from '../../workers/warehouse-export/parquet-writer.js';
import { WAREHOUSE_TABLES } from '../../workers/warehouse-export/tables.js';

describe('Parquet warehouse export (no service)', () => {
  const dir = '/var/pi/parquet';
  const project = '0b6c8f9e-4c1a-4d5e-9f00-2a1b3c4d5e6f';

  it("keeps a destination's folder inside the project's own folder", () => {
    for (const [name, folder] of [
      ['lake', `${dir}/${project}/lake`],
      ['team/lake', `${dir}/${project}/team/lake`],
      ['team/../lake', `${dir}/${project}/lake`],
      ['./lake', `${dir}/${project}/lake`],
    ]) {
      assert.deepEqual(parquetFolder(dir, project, name!), { folder }, name);
    }
    // Another project's folder is "../<id>" from this one: refused like any other climb.
    for (const name of [`../${project}`, '../other/lake', '/etc', 'a/../..', '..', '.', 'lake/', 'a\0b']) {
      const result = parquetFolder(dir, project, name);
      assert.ok('reason' in result, name);
      assert.deepEqual([result.field, result.reason], ['credentials.database', 'path_outside_folder'], name);
      assert.match(result.message, /folder inside the Parquet export folder/);
    }
    assert.equal(
      (parquetFolder('data/parquet', project, 'x') as { folder: string }).folder,
      path.resolve('data/parquet', project, 'x'),
    );
  });

  it('checks a parquet destination when it is queued', () => {
    assert.equal(checkCredentials('parquet', { database: 'lake/pi' }), undefined);
    assert.equal(checkCredentials('parquet', { database: '../x' })?.reason, 'path_outside_folder');
    assert.equal(checkCredentials('parquet', { database: 'lake', account: '' }), undefined, 'needs no account');
  });

  it('partitions events and features by day, and writes the other tables as one folder', () => {
    const events = copySql(WAREHOUSE_TABLES.events, "/tmp/it's/events");
    assert.match(
      events,
      /"occurred_at", "received_at", "properties", timezone\('UTC', "occurred_at"\)::date as "day" from/,
    );
    assert.match(events, /to '\/tmp\/it''s\/events' \(.*partition_by \("day"\)\)$/);
    // features has its own day column: selected once, as the partition.
    const features = copySql(WAREHOUSE_TABLES.features, '/t/features');
    assert.equal(features.match(/"day"/g)?.length, 3);
    assert.match(features, /partition_by \("day"\)/);
    for (const table of [WAREHOUSE_TABLES.users, WAREHOUSE_TABLES.workflows]) {
      const sql = copySql(table, '/t/x');
      assert.doesNotMatch(sql, /partition_by|"day"/);
      assert.match(sql, /file_size_bytes/);
    }
  });

  describe('swapping a table folder in', () => {
    let tmp: string;
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true });
      fs.writeFileSync(path.join(tmp, file), text);
    };
    const read = (file: string) => fs.readFileSync(path.join(tmp, file), 'utf8');
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-swap-'));
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it('replaces the old folder as a whole, and creates the first one', async () => {
      write('new/day=2/part-0.parquet', 'new');
      write('lake/events/day=1/part-0.parquet', 'old');
      await swapFolder(path.join(tmp, 'new'), path.join(tmp, 'lake/events'), path.join(tmp, 'aside'));
      assert.deepEqual(fs.readdirSync(path.join(tmp, 'lake/events')), ['day=2']);
      assert.equal(read('lake/events/day=2/part-0.parquet'), 'new');
      assert.equal(
        read('aside-0/day=1/part-0.parquet'),
        'old',
        'the old folder is set aside, for the caller to delete',
      );

      write('first/part-0.parquet', 'first');
      await swapFolder(path.join(tmp, 'first'), path.join(tmp, 'a/b/users'), path.join(tmp, 'aside-u'));
      assert.equal(read('a/b/users/part-0.parquet'), 'first');
    });

    it('puts the old folder back when the new one cannot be moved in', async () => {
      write('lake/events/day=1/part-0.parquet', 'old');
      await assert.rejects(
        swapFolder(path.join(tmp, 'missing'), path.join(tmp, 'lake/events'), path.join(tmp, 'aside')),
        { code: 'ENOENT' },
      );
      assert.equal(read('lake/events/day=1/part-0.parquet'), 'old');
    });
  });
});
