import type { Context } from 'koa';
import type { Pool } from '../../lib/db.js';
import { featureTotals, metricsOf } from '../../lib/feature-usage.js';
import { quadrant, round, visibilityRate } from '../../lib/metrics.js';
import { projectAnalyticsConfig } from '../../lib/project-config.js';
import { DATE_RANGE_PARAMS, booleanParam, dateRange, segment } from '../analytics-params.js';
import { notFound } from '../errors.js';
import { stringParam } from '../query.js';
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
      ],
      success: { status: 200, description: '{ features, date_range }' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const range = dateRange(ctx);
        const seg = segment(ctx);
        const withContext = booleanParam(ctx, 'include_context', true);
        const config = await projectAnalyticsConfig(db, projectId);
        const rows = await featureTotals(db, projectId, range, seg, null);
        ctx.body = {
          features: rows.map((row) => {
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
          date_range: range,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/features/:feature_name',
      tag: 'Analytics',
      summary: 'One feature: metrics, usage by user tenure, how users discovered it, usage by segment',
      scope: 'analytics:read',
      query: [
        ...DATE_RANGE_PARAMS,
        {
          name: 'segment_by',
          description: 'user property that splits segmented_usage (default plan)',
          schema: { type: 'string' },
        },
      ],
      success: { status: 200, description: 'Feature detail' },
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
  const { rows: known } = await db.query<{ n: number }>(
    'select count(*)::int as n from feature_users where project_id = $1 and feature = $2',
    [projectId, name],
  );
  if (known[0]!.n === 0) throw notFound('feature');
  const [row] = await featureTotals(db, projectId, range, undefined, name);
  const m = row ? metricsOf(row) : { vr: 0, ec: 0, days: 0, dgs: 0 };

  // Visibility by the user's tenure on the day of the session (all time).
  const { rows: tenure } = await db.query<{ fw_s: number; fw_v: number; m2_s: number; m2_v: number }>(
    `with days as (
       select d.user_id, d.day, d.sessions, (d.day - (m.first_seen_at at time zone 'utc')::date) as age
       from user_daily d join user_metrics m on m.project_id = d.project_id and m.user_id = d.user_id
       where d.project_id = $1
     )
     select coalesce(sum(days.sessions) filter (where age < 7), 0)::int as fw_s,
            coalesce(sum(f.sessions_visible) filter (where age < 7), 0)::int as fw_v,
            coalesce(sum(days.sessions) filter (where age >= 30), 0)::int as m2_s,
            coalesce(sum(f.sessions_visible) filter (where age >= 30), 0)::int as m2_v
     from days left join feature_user_daily f
       on f.project_id = $1 and f.feature = $2 and f.user_id = days.user_id and f.day = days.day`,
    [projectId, name],
  );
  const t = tenure[0]!;
  const { rows: methods } = await db.query<{ source: string; n: number }>(
    `select first_use_source as source, count(*)::int as n from feature_users
     where project_id = $1 and feature = $2 and first_used_at is not null group by first_use_source`,
    [projectId, name],
  );
  const discovered = methods.reduce((s, r) => s + r.n, 0);
  const share = (method: string) =>
    round(discovered > 0 ? (methods.find((r) => r.source === method)?.n ?? 0) / discovered : 0);

  const { rows: values } = await db.query<{ value: string }>(
    `select distinct properties->>$2 as value from users where project_id = $1 and properties ? $2 order by 1 limit 50`,
    [projectId, segmentBy],
  );
  const segmented = [];
  for (const { value } of values) {
    const [s] = await featureTotals(db, projectId, range, { key: segmentBy, value }, name);
    const sm = s ? metricsOf(s) : { vr: 0, ec: 0 };
    segmented.push({
      segment: `${segmentBy}:${value}`,
      visibility_rate: round(sm.vr),
      engagement_conversion: round(sm.ec),
    });
  }
  return {
    name,
    metrics: {
      visibility_rate: round(m.vr),
      engagement_conversion: round(m.ec),
      discovery_gap_score: round(m.dgs),
    },
    usage_patterns: {
      first_week_vr: round(visibilityRate(t.fw_v, t.fw_s)),
      month_2_plus_vr: round(visibilityRate(t.m2_v, t.m2_s)),
      avg_days_to_discovery: round(m.days),
    },
    discovery_methods: {
      browsing: share('browsing'),
      power_user_exploration: share('power_user_exploration'),
      recommendation: share('recommendation'),
      documentation: share('documentation'),
    },
    segmented_usage: segmented,
    date_range: range,
  };
}
