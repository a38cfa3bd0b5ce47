import { type AnalyticsConfig, type AnalyticsOverrides, analyticsConfig } from './analytics-config.js';
import type { Pool, PoolClient } from './db.js';

/** The analytics settings in force for a project: defaults with its overrides laid over them. */
export async function projectAnalyticsConfig(db: Pool | PoolClient, projectId: string): Promise<AnalyticsConfig> {
  const { rows } = await db.query<{ analytics: AnalyticsOverrides | null }>(
    `select settings->'analytics' as analytics from projects where project_id = $1`,
    [projectId],
  );
  return analyticsConfig(rows[0]?.analytics ?? {});
}
