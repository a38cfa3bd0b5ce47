import type { Pool } from '../lib/db.js';

/** integration_webhooks: a project's one outbound integration endpoint (api/routes/integrations.ts). */

export interface IntegrationRow {
  url: string;
  events: string[];
  created_at: Date;
  updated_at: Date;
}

/**
 * Connects the project's endpoint or changes it, replacing its sealed secret when new or when
 * `rotate`; says whether the row was created and whether the given secret was stored.
 */
export async function upsertIntegration(
  db: Pool,
  row: { projectId: string; url: string; events: readonly string[]; sealedSecret: string; rotate: boolean },
): Promise<IntegrationRow & { created: boolean; issued: boolean }> {
  const { rows } = await db.query<IntegrationRow & { created: boolean; issued: boolean }>(
    `insert into integration_webhooks as i (project_id, url, events, secret) values ($1, $2, $3, $4)
     on conflict (project_id) do update
       set url = excluded.url, events = excluded.events, updated_at = now(),
           secret = case when $5 then excluded.secret else i.secret end
     returning url, events, created_at, updated_at, (xmax = 0) as created, (xmax = 0 or $5) as issued`,
    [row.projectId, row.url, row.events, row.sealedSecret, row.rotate],
  );
  return rows[0]!;
}

/** Reads the project's endpoint. */
export async function integration(db: Pool, projectId: string): Promise<IntegrationRow | undefined> {
  const { rows } = await db.query<IntegrationRow>('select * from integration_webhooks where project_id = $1', [
    projectId,
  ]);
  return rows[0];
}

/** Deletes the project's endpoint; whether it had one. */
export async function deleteIntegration(db: Pool, projectId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from integration_webhooks where project_id = $1', [projectId]);
  return rowCount !== 0;
}
