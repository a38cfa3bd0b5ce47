import { type AnalyticsConfig, type AnalyticsOverrides, analyticsConfig } from '../domain/analytics-config.js';
import type { Pool, PoolClient } from '../lib/db.js';

/** The analytics settings in force for a project: defaults with its overrides laid over them. */
export async function projectAnalyticsConfig(db: Pool | PoolClient, projectId: string): Promise<AnalyticsConfig> {
  const { rows } = await db.query<{ analytics: AnalyticsOverrides | null }>(
    `select settings->'analytics' as analytics from projects where project_id = $1`,
    [projectId],
  );
  return analyticsConfig(rows[0]?.analytics ?? {});
}

/** The analytics settings of several projects with one statement (a project not found gets the defaults). */
export async function projectAnalyticsConfigs(
  db: Pool | PoolClient,
  projectIds: string[],
): Promise<Map<string, AnalyticsConfig>> {
  const { rows } = await db.query<{ project_id: string; analytics: AnalyticsOverrides | null }>(
    `select project_id, settings->'analytics' as analytics from projects where project_id = any($1::uuid[])`,
    [projectIds],
  );
  const found = new Map(rows.map((r) => [r.project_id, r.analytics ?? {}]));
  return new Map(projectIds.map((id) => [id, analyticsConfig(found.get(id) ?? {})]));
}
