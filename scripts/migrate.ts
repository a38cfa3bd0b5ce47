import { ConfigError, loadConfig } from '../lib/config.js';
import { runMigrations } from '../lib/migrate.js';

try {
  const applied = await runMigrations(loadConfig().databaseUrl);
  console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'database is up to date');
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exitCode = 1;
}
