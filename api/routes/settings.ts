import { type Retention, retention } from '../../domain/retention.js';
import { type AnalyticsOverrides, analyticsConfig } from '../../domain/analytics-config.js';
import { rebuildSegmentTables } from '../../store/answer-tables.js';
import { lockProjectForUpdate } from '../../store/locks.js';
import { audit } from '../../store/audit-log.js';
import {
  analyticsOverrides,
  retentionOverrides,
  setAnalyticsOverrides,
  setRetentionOverrides,
} from '../../store/projects.js';
import { type Pool, inTransaction } from '../../lib/db.js';
import { type Route, defineRoute } from '../route.js';

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
        ctx.body = present(await analyticsOverrides(db, ctx.state.auth.projectId));
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
          await setAnalyticsOverrides(client, projectId, overrides);
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
        ctx.body = presentRetention(await retentionOverrides(db, ctx.state.auth.projectId));
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
        await setRetentionOverrides(db, ctx.state.auth.projectId, overrides);
        await audit(db, ctx, 'settings.changed', 'retention', overrides);
        ctx.body = presentRetention(overrides);
      },
    }),
  ];
}

const presentRetention = (overrides: Partial<Retention>) => ({ overrides, effective: retention(overrides) });
