import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../lib/config.js';
import { dumpSchema } from '../../lib/schema-dump.js';
import { runMigrations } from '../../lib/migrate.js';

describe('schema', () => {
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

  it('migrates a database that applied a migration before its comment was reworded', async () => {
    const { databaseUrl } = loadConfig();
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ hash: string }>('select hash from migrations where id = 32');
      // The hash recorded for the earlier wording of 32_session_contribution_json.sql.
      await db.query("update migrations set hash = 'e6e45ad13ad848353fb43cff84e8b0be1b0f4037' where id = 32");
      assert.deepEqual(await runMigrations(databaseUrl), []);
      const { rows: after } = await db.query<{ hash: string }>('select hash from migrations where id = 32');
      assert.deepEqual(after, rows);
    } finally {
      await db.end();
    }
  });
});
