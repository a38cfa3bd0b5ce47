import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrate } from 'postgres-migrations';

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'sql', 'migrations');

/**
 * Applied migrations whose comments were reworded afterwards (their SQL is unchanged), with the
 * hash the database recorded for the old wording. postgres-migrations refuses a file whose hash
 * moved, so a database that applied the old wording has its record moved to the new one first.
 */
const REWORDED: { fileName: string; hash: string }[] = [
  { fileName: '32_session_contribution_json.sql', hash: 'e6e45ad13ad848353fb43cff84e8b0be1b0f4037' },
];

/** The hash postgres-migrations records for a file: SHA-1 of its name and its text. */
const fileHash = (fileName: string) =>
  crypto
    .createHash('sha1')
    .update(fileName + fs.readFileSync(path.join(migrationsDir, fileName), 'utf8'), 'utf8')
    .digest('hex');

async function recordRewordings(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ exists: boolean }>("select to_regclass('migrations') is not null as exists");
  if (!rows[0]!.exists) return;
  for (const { fileName, hash } of REWORDED) {
    const id = Number(fileName.split('_')[0]);
    await client.query('update migrations set hash = $1 where id = $2 and hash = $3', [fileHash(fileName), id, hash]);
  }
}

/**
 * Applies the numbered files of sql/migrations that the database has not seen, each in its own
 * transaction, recorded (with a hash) in the `migrations` table. An edited applied migration fails.
 * Concurrent callers are serialised by the library's advisory lock.
 */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await recordRewordings(client);
    const applied = await migrate({ client }, migrationsDir, { logger: () => undefined });
    return applied.map((m) => m.fileName);
  } finally {
    await client.end();
  }
}
