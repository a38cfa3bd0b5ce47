import { type Retention, retention } from '../../domain/retention.js';
import { type AnalyticsOverrides, analyticsConfig } from '../../domain/analytics-config.js';
import { rebuildSegmentTables } from '../../store/answer-tables.js';
import { lockProjectForUpdate } from '../../store/locks.js';
import { audit } from '../../store/audit-log.js';
import { type Pool, type PoolClient, inTransaction } from '../../lib/db.js';
import { type Route, defineRoute } from '../route.js';

async function overridesOf(db: Pool | PoolClient, projectId: string): Promise<AnalyticsOverrides> {
  const { rows } = await db.query<{ analytics: AnalyticsOverrides | null }>(
    `select settings->'analytics' as analytics from projects where project_id = $1`,
    [projectId],
  );
  return rows[0]?.analytics ?? {};
}

const present = (overrides: AnalyticsOverrides) => ({ overrides, effective: analyticsConfig(overrides) });

/** The project's analytics thresholds and weights: what it overrides and what is in force. */
export function settingsRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/settings/analytics',
      tag: 'Settings',
      summary: "The project's analytics overrides and the thresholds and weights in force",
      scope: 'admin',
      success: { status: 200, schema: 'AnalyticsSettings', description: '{ overrides, effective }' },
      async handle(ctx) {
        ctx.body = present(await overridesOf(db, ctx.state.auth.projectId));
      },
    }),
    defineRoute<AnalyticsOverrides>({
      method: 'PUT',
      path: '/settings/analytics',
      tag: 'Settings',
      summary: "Replace the project's analytics overrides (applies to events processed from now on)",
      scope: 'admin',
      body: 'analytics-settings.json',
      success: { status: 200, schema: 'AnalyticsSettings', description: '{ overrides, effective }' },
      async handle(ctx, overrides) {
        const { projectId } = ctx.state.auth;
        await inTransaction(db, async (client) => {
          // Writers of answer tables read the segment properties under a share lock on the project
          // row (store/locks.ts), so the rebuild sees all they did and they see its result.
          const settings = await lockProjectForUpdate(client, projectId);
          const before = analyticsConfig(settings.analytics ?? {}).segments.properties;
          await client.query(
            `update projects set settings = jsonb_set(settings, '{analytics}', $2::jsonb) where project_id = $1`,
            [projectId, JSON.stringify(overrides)],
          );
          const after = analyticsConfig(overrides).segments.properties;
          if (JSON.stringify([...before].sort()) !== JSON.stringify([...after].sort())) {
            await rebuildSegmentTables(client, projectId);
          }
        });
        await audit(db, ctx, 'settings.changed', 'analytics', overrides);
        ctx.body = present(overrides);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/settings/retention',
      tag: 'Settings',
      summary: 'How long the project keeps raw events, deliveries, report runs, alerts and export files',
      scope: 'admin',
      success: { status: 200, schema: 'RetentionSettings', description: '{ overrides, effective } (whole days)' },
      async handle(ctx) {
        ctx.body = presentRetention(await retentionOf(db, ctx.state.auth.projectId));
      },
    }),
    defineRoute<Partial<Retention>>({
      method: 'PUT',
      path: '/settings/retention',
      tag: 'Settings',
      summary: "Replace the project's retention overrides (the retention worker applies them within the hour)",
      scope: 'admin',
      body: 'retention-settings.json',
      success: { status: 200, schema: 'RetentionSettings', description: '{ overrides, effective } (whole days)' },
      async handle(ctx, overrides) {
        await db.query(
          `update projects set settings = jsonb_set(settings, '{retention}', $2::jsonb) where project_id = $1`,
          [ctx.state.auth.projectId, JSON.stringify(overrides)],
        );
        await audit(db, ctx, 'settings.changed', 'retention', overrides);
        ctx.body = presentRetention(overrides);
      },
    }),
  ];
}

async function retentionOf(db: Pool, projectId: string): Promise<Partial<Retention>> {
  const { rows } = await db.query<{ retention: Partial<Retention> | null }>(
    `select settings->'retention' as retention from projects where project_id = $1`,
    [projectId],
  );
  return rows[0]?.retention ?? {};
}

const presentRetention = (overrides: Partial<Retention>) => ({ overrides, effective: retention(overrides) });
