import { runCli } from '../lib/cli.js';
import { loadConfig } from '../lib/config.js';
import { runMigrations } from '../lib/migrate.js';

await runCli(
  {
    usage: 'npm run migrate',
    summary: 'Applies the numbered migrations of sql/migrations the database (DATABASE_URL) has not seen.',
    options: {},
  },
  async () => {
    const applied = await runMigrations(loadConfig().databaseUrl);
    console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'database is up to date');
  },
);
