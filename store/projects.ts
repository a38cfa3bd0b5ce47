import type pg from 'pg';
import type { Retention } from '../domain/retention.js';
import type { AnalyticsOverrides } from '../domain/analytics-config.js';
import { TIER_LIMITS } from './api-keys.js';

export const RATE_TIERS = ['standard', 'pro', 'enterprise'] as const;
export type RateTier = (typeof RATE_TIERS)[number];

/** A tier as an operator sets it: only enterprise carries a number of its own. */
export type TierChoice = { tier: 'standard' | 'pro' } | { tier: 'enterprise'; limitPerHour: number };

export interface RateSettings {
  projectId: string;
  name: string;
  tier: RateTier;
  limitPerHour: number;
}

interface TierRow {
  project_id: string;
  name: string;
  rate_tier: RateTier;
  rate_limit_per_hour: number | null;
}

/** Every project's id, in id order: the projects a pass over all of them visits. */
export async function projectIds(db: pg.Pool | pg.PoolClient): Promise<string[]> {
  const { rows } = await db.query<{ project_id: string }>('select project_id from projects order by project_id');
  return rows.map((r) => r.project_id);
}

/** Every project's retention settings as stored (projects.settings.retention; defaults by domain/retention.ts). */
export async function projectRetentions(
  db: pg.Pool | pg.PoolClient,
): Promise<{ project_id: string; retention: Partial<Retention> | null }[]> {
  const { rows } = await db.query<{ project_id: string; retention: Partial<Retention> | null }>(
    `select project_id, settings->'retention' as retention from projects`,
  );
  return rows;
}

/** The requests per hour in force; the same rule as resolveKey's SQL (store/api-keys.ts). */
function settingsOf(row: TierRow): RateSettings {
  const limitPerHour = row.rate_tier === 'enterprise' ? row.rate_limit_per_hour! : TIER_LIMITS[row.rate_tier];
  return { projectId: row.project_id, name: row.name, tier: row.rate_tier, limitPerHour };
}

export async function getRateSettings(db: pg.Pool | pg.PoolClient, projectId: string): Promise<RateSettings> {
  const { rows } = await db.query<TierRow>(
    'select project_id, name, rate_tier, rate_limit_per_hour from projects where project_id = $1',
    [projectId],
  );
  if (!rows[0]) throw new Error(`no project ${projectId}`);
  return settingsOf(rows[0]);
}

/**
 * Sets the rate tier of the project named `name` and answers its settings before and after, or
 * undefined when no project has that name. An operator's decision: the CLI calls this, no API route
 * does. Keys read the tier on every request, so the next request is counted against the new limit.
 */
export async function setRateTier(
  db: pg.Pool | pg.PoolClient,
  name: string,
  choice: TierChoice,
): Promise<{ before: RateSettings; after: RateSettings } | undefined> {
  const custom = choice.tier === 'enterprise' ? choice.limitPerHour : null;
  // The CTE locks the row, so `before` is what this update replaced, not what a racing one left.
  const { rows } = await db.query<TierRow & { old_tier: RateTier; old_limit: number | null }>(
    `with old as (select project_id, rate_tier, rate_limit_per_hour from projects where name = $1 for update)
     update projects p set rate_tier = $2, rate_limit_per_hour = $3
     from old where p.project_id = old.project_id
     returning p.project_id, p.name, p.rate_tier, p.rate_limit_per_hour,
               old.rate_tier as old_tier, old.rate_limit_per_hour as old_limit`,
    [name, choice.tier, custom],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    before: settingsOf({ ...row, rate_tier: row.old_tier, rate_limit_per_hour: row.old_limit }),
    after: settingsOf(row),
  };
}

/** Reads a project's declared goal events (settings.goals); none when unset. */
export async function declaredGoals(db: pg.Pool, projectId: string): Promise<string[]> {
  const { rows } = await db.query<{ goals: string[] | null }>(
    `select settings->'goals' as goals from projects where project_id = $1`,
    [projectId],
  );
  return rows[0]?.goals ?? [];
}

/** Sets a project's declared goal events (settings.goals). */
export async function setDeclaredGoals(db: pg.Pool, projectId: string, goals: string[]): Promise<void> {
  await db.query(`update projects set settings = jsonb_set(settings, '{goals}', $2::jsonb) where project_id = $1`, [
    projectId,
    JSON.stringify(goals),
  ]);
}

/** Reads what a project overrides of the analytics configuration (settings.analytics); none when unset. */
export async function analyticsOverrides(db: pg.Pool | pg.PoolClient, projectId: string): Promise<AnalyticsOverrides> {
  const { rows } = await db.query<{ analytics: AnalyticsOverrides | null }>(
    `select settings->'analytics' as analytics from projects where project_id = $1`,
    [projectId],
  );
  return rows[0]?.analytics ?? {};
}

/** Sets a project's analytics overrides (settings.analytics); the caller holds the project's row (lockProjectForUpdate). */
export async function setAnalyticsOverrides(
  client: pg.PoolClient,
  projectId: string,
  overrides: AnalyticsOverrides,
): Promise<void> {
  await client.query(
    `update projects set settings = jsonb_set(settings, '{analytics}', $2::jsonb) where project_id = $1`,
    [projectId, JSON.stringify(overrides)],
  );
}

/** Reads what a project overrides of the retention ages (settings.retention); none when unset. */
export async function retentionOverrides(db: pg.Pool, projectId: string): Promise<Partial<Retention>> {
  const { rows } = await db.query<{ retention: Partial<Retention> | null }>(
    `select settings->'retention' as retention from projects where project_id = $1`,
    [projectId],
  );
  return rows[0]?.retention ?? {};
}

/** Sets a project's retention overrides (settings.retention). */
export async function setRetentionOverrides(
  db: pg.Pool,
  projectId: string,
  overrides: Partial<Retention>,
): Promise<void> {
  await db.query(`update projects set settings = jsonb_set(settings, '{retention}', $2::jsonb) where project_id = $1`, [
    projectId,
    JSON.stringify(overrides),
  ]);
}

/** The project named `nameOrId` (its name, or its id when it is one); undefined when none is. */
export async function findProject(
  db: pg.Pool | pg.PoolClient,
  nameOrId: string,
): Promise<{ project_id: string; name: string } | undefined> {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(nameOrId);
  const { rows } = await db.query<{ project_id: string; name: string }>(
    `select project_id, name from projects where name = $1 ${isId ? 'or project_id = $1::uuid' : ''}`,
    [nameOrId],
  );
  return rows[0];
}
