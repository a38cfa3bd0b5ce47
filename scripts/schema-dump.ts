import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../lib/config.js';
import { runMigrations } from '../lib/migrate.js';
import { dumpSchema } from '../lib/schema-dump.js';
import { projectRoot } from './local-stack/paths.js';

// Migrates the configured database and writes its schema to sql/schema.sql.
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
