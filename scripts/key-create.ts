import { UsageError, runCli } from '../lib/cli.js';
import { allowedOriginsOf } from '../api/cors.js';
import { createKey, ensureProject, parseScopes } from '../store/api-keys.js';
import { loadConfig } from '../lib/config.js';
import { createPool } from '../lib/db.js';
import { runMigrations } from '../lib/migrate.js';

await runCli(
  {
    usage:
      'npm run key:create -- --project <name> --scopes events:write,analytics:read,admin [--name <label>] [--origins …]',
    summary:
      'Creates an API key (and the project when new) and prints the key once. With --origins (and --scopes events:write only): a browser key.',
    options: {
      project: { type: 'string', arg: 'name', help: 'the project (created when new)' },
      scopes: { type: 'string', arg: 'list', help: 'comma-separated: events:write, analytics:read, admin' },
      name: { type: 'string', arg: 'label', help: 'a label shown in key lists' },
      origins: { type: 'string', arg: 'list', help: 'comma-separated origins a browser key may be used from' },
    },
  },
  async ({ values }) => {
    if (!values.project) throw new UsageError('--project is required');
    if (!values.scopes) throw new UsageError('--scopes is required');
    const scopes = (() => {
      try {
        return parseScopes(values.scopes);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    })();
    const config = loadConfig();
    await runMigrations(config.databaseUrl);
    const db = createPool(config.databaseUrl, 1);
    try {
      const origins = allowedOriginsOf(values.origins?.split(',').filter(Boolean), scopes);
      const projectId = await ensureProject(db, values.project);
      const { key } = await createKey(db, projectId, scopes, values.name ?? '', origins);
      const browser = origins ? `; origins ${origins.join(', ')}` : '';
      console.error(
        `project ${values.project} (${projectId}); scopes ${scopes.join(', ')}${browser}. The key is shown once:`,
      );
      console.log(key);
    } finally {
      await db.end();
    }
  },
);
