import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { runCli } from '../lib/cli.js';
import { loadConfig } from '../lib/config.js';
import { runMigrations } from '../lib/migrate.js';
import { dumpSchema } from '../lib/schema-dump.js';
import { projectRoot } from './local-stack/paths.js';

await runCli(
  {
    usage: 'npm run schema:dump',
    summary:
      'Migrates the configured database (DATABASE_URL) and writes its schema to sql/schema.sql (a test compares it).',
    options: {},
  },
  async () => {
    const { databaseUrl } = loadConfig();
    await runMigrations(databaseUrl);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const file = path.join(projectRoot, 'sql', 'schema.sql');
      fs.writeFileSync(file, await dumpSchema(client));
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    } finally {
      await client.end();
    }
  },
);
