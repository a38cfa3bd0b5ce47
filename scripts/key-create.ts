import { parseArgs } from 'node:util';
import { createKey, ensureProject, parseScopes } from '../lib/api-keys.js';
import { loadConfig } from '../lib/config.js';
import { createPool } from '../lib/db.js';
import { runMigrations } from '../lib/migrate.js';

const usage =
  'usage: npm run key:create -- --project <name> --scopes events:write,analytics:read,admin [--name <label>]';

const { values } = parseArgs({
  options: { project: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string', default: '' } },
});
if (!values.project || !values.scopes) {
  console.error(usage);
  process.exit(2);
}
const config = loadConfig();
await runMigrations(config.databaseUrl);
const db = createPool(config.databaseUrl, 1);
try {
  const scopes = parseScopes(values.scopes);
  const projectId = await ensureProject(db, values.project);
  const { key } = await createKey(db, projectId, scopes, values.name);
  console.error(`project ${values.project} (${projectId}); scopes ${scopes.join(', ')}. The key is shown once:`);
  console.log(key);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.end();
}
