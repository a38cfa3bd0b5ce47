import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrate } from 'postgres-migrations';

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'sql', 'migrations');

/**
 * Applies the numbered files of sql/migrations that the database has not seen, each in its own
 * transaction, recorded (with a hash) in the `migrations` table. An edited applied migration fails.
 * Concurrent callers are serialised by the library's advisory lock.
 */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const applied = await migrate({ client }, migrationsDir, { logger: () => undefined });
    return applied.map((m) => m.fileName);
  } finally {
    await client.end();
  }
}
