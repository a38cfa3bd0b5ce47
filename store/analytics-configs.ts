import {
  type AnalyticsConfig,
  type AnalyticsOverrides,
  analyticsConfig,
  configVersion,
} from '../domain/analytics-config.js';
import type { PoolClient } from '../lib/db.js';

/**
 * Every effective analytics config a stored session was computed with (`configVersion`): the
 * sessions' contributions are not stored, and a writer that takes one away computes it again from
 * the session's events with the config it names.
 */

/** Records the configs, once each, in the transaction that stores sessions naming them. */
export async function recordConfigs(client: PoolClient, configs: Map<string, AnalyticsConfig>): Promise<void> {
  const entries = [...configs].sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return;
  await client.query(
    `insert into analytics_configs (project_id, version, config)
     select * from unnest($1::uuid[], $2::text[], $3::jsonb[]) on conflict do nothing`,
    [
      entries.map(([projectId]) => projectId),
      entries.map(([, config]) => configVersion(config)),
      entries.map(([, config]) => JSON.stringify(config)),
    ],
  );
}

/** The configs named by (project, version) pairs, keyed `project NUL version`. */
export async function configsByVersion(
  client: PoolClient,
  wanted: { projectId: string; version: string }[],
): Promise<Map<string, AnalyticsConfig>> {
  if (wanted.length === 0) return new Map();
  const { rows } = await client.query<{ project_id: string; version: string; config: AnalyticsOverrides }>(
    `select c.project_id, c.version, c.config from analytics_configs c
     join unnest($1::uuid[], $2::text[]) as w(project_id, version) using (project_id, version)`,
    [wanted.map((w) => w.projectId), wanted.map((w) => w.version)],
  );
  // Laid over today's defaults: a threshold added since is at its default.
  return new Map(rows.map((r) => [`${r.project_id}\u0000${r.version}`, analyticsConfig(r.config)]));
}
