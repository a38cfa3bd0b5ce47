import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../lib/config.js';
import { dumpSchema } from '../../lib/schema-dump.js';

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
});
