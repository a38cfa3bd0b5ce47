import type { Context } from 'koa';
import type { Pool } from '../../lib/db.js';
import {
  discoveryMethods,
  featureDays,
  featureKnown,
  featureTotals,
  metricsOf,
  segmentTotals,
  tenureSessions,
} from '../../store/feature-usage.js';
import { quadrant, round, visibilityRate } from '../../domain/metrics.js';
import { projectAnalyticsConfig } from '../../store/project-config.js';
import { DATE_RANGE_PARAMS, booleanParam, dateRange, segment } from '../analytics-params.js';
import { notFound } from '../errors.js';
import { PAGING_PARAMS, pageFields, pageOfList, paging, stringParam } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

export function featureRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/features',
      tag: 'Analytics',
      summary: 'Features seen versus used: VR, EC, DGS and quadrant per feature',
      scope: 'analytics:read',
      query: [
        ...DATE_RANGE_PARAMS,
        {
          name: 'segment',
          description: 'a user property filter property:value, e.g. plan:pro',
          schema: { type: 'string' },
        },
        {
          name: 'include_context',
          description: 'add UI context (default true)',
          schema: { type: 'boolean', default: true },
        },
        ...PAGING_PARAMS,
      ],
      success: {
        status: 200,
        schema: 'FeatureList',
        description: '{ features, total, page_number, page, per_page, next, date_range, quadrant_thresholds }: by name',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const range = dateRange(ctx);
        const seg = segment(ctx);
        const withContext = booleanParam(ctx, 'include_context', true);
        const paged = paging(ctx);
        const config = await projectAnalyticsConfig(db, projectId);
        const rows = seg
          ? (
              await segmentTotals(
                db,
                projectId,
                range,
                { key: seg.key, values: [seg.value] },
                null,
                config.segments.properties,
              )
            ).rows
          : await featureTotals(db, projectId, range, null);
        const { items, total } = pageOfList(rows, paged);
        ctx.body = {
          features: items.map((row) => {
            const m = metricsOf(row);
            return {
              name: row.feature,
              visibility_rate: round(m.vr),
              engagement_conversion: round(m.ec),
              discovery_gap_score: round(m.dgs),
              quadrant: quadrant(m.vr, m.ec, config.quadrant),
              users_saw: row.users_saw,
              users_used: row.users_used,
              avg_days_to_discovery: round(m.days),
              ...(withContext
                ? {
                    context: {
                      visible_in_empty_state: round(
                        row.impressions > 0 ? row.empty_state_impressions / row.impressions : 0,
                      ),
                      avg_data_volume_when_used: round(row.dv_n > 0 ? row.dv_sum / row.dv_n : 0),
                    },
                  }
                : {}),
            };
          }),
          ...pageFields(paged, total),
          date_range: range,
          // What `quadrant` was assigned with, so a chart draws the lines the features were sorted by.
          quadrant_thresholds: {
            visibility_rate: config.quadrant.visibilityRate,
            engagement_conversion: config.quadrant.engagementConversion,
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/features/:feature_name',
      tag: 'Analytics',
      summary: 'One feature: metrics, usage by user tenure, how users discovered it, usage by segment and by day',
      scope: 'analytics:read',
      query: [
        ...DATE_RANGE_PARAMS,
        {
          name: 'segment_by',
          description: 'user property that splits segmented_usage (default plan)',
          schema: { type: 'string' },
        },
      ],
      success: {
        status: 200,
        schema: 'FeatureDetail',
        description: 'Feature detail, with usage_over_time: one row per day',
      },
      errors: { 404: 'The feature was never seen in this project' },
      async handle(ctx) {
        ctx.body = await featureDetail(db, ctx);
      },
    }),
  ];
}

async function featureDetail(db: Pool, ctx: Context) {
  const { projectId } = ctx.state.auth;
  const name = pathParam(ctx, 'feature_name');
  const range = dateRange(ctx);
  const segmentBy = stringParam(ctx, 'segment_by') ?? 'plan';
  if (!(await featureKnown(db, projectId, name))) throw notFound('feature');
  const [row] = await featureTotals(db, projectId, range, name);
  const m = row ? metricsOf(row) : { vr: 0, ec: 0, days: 0, dgs: 0 };

  // Visibility by the user's tenure on the day of the session, sessions of the range; '' holds all sessions.
  const tenure = await tenureSessions(db, projectId, name, range);
  const sessions = tenure.find((t) => t.feature === '');
  const visible = tenure.find((t) => t.feature === name);
  // How the users who discovered the feature in the range (their first use) found it.
  const methods = await discoveryMethods(db, projectId, name, range);
  const discovered = methods.reduce((s, r) => s + r.users, 0);
  const share = (method: string) =>
    round(discovered > 0 ? (methods.find((r) => r.method === method)?.users ?? 0) / discovered : 0);

  const config = await projectAnalyticsConfig(db, projectId);
  const bySegment = await segmentTotals(
    db,
    projectId,
    range,
    { key: segmentBy, values: null },
    name,
    config.segments.properties,
  );
  const segmented = bySegment.values.map((value) => {
    const s = bySegment.rows.find((r) => r.segment === value);
    const sm = s ? metricsOf(s) : { vr: 0, ec: 0 };
    return {
      segment: `${segmentBy}:${value}`,
      visibility_rate: round(sm.vr),
      engagement_conversion: round(sm.ec),
    };
  });
  return {
    name,
    metrics: {
      visibility_rate: round(m.vr),
      engagement_conversion: round(m.ec),
      discovery_gap_score: round(m.dgs),
    },
    usage_patterns: {
      first_week_vr: round(visibilityRate(visible?.first_week ?? 0, sessions?.first_week ?? 0)),
      month_2_plus_vr: round(visibilityRate(visible?.month_2_plus ?? 0, sessions?.month_2_plus ?? 0)),
      avg_days_to_discovery: round(m.days),
    },
    discovery_methods: {
      browsing: share('browsing'),
      power_user_exploration: share('power_user_exploration'),
      recommendation: share('recommendation'),
      documentation: share('documentation'),
    },
    segmented_usage: segmented,
    usage_over_time: await featureDays(db, projectId, range, name),
    date_range: range,
  };
}
