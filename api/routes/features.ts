import type { Context } from 'koa';
import type { Pool } from '../../lib/db.js';
import { discoveryGapScore, engagementConversion, quadrant, visibilityRate } from '../../lib/metrics.js';
import { DATE_RANGE_PARAMS, booleanParam, dateRange, projectAnalyticsConfig, segment } from '../analytics-params.js';
import { notFound } from '../errors.js';
import { stringParam } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface FeatureRow {
  feature: string;
  sessions_visible: number;
  users_saw: number;
  users_used: number;
  impressions: number;
  empty_state_impressions: number;
  dv_sum: number;
  dv_n: number;
  sessions: number;
  avg_days: number | null;
}

export const round = (x: number) => Math.round(x * 1e9) / 1e9;

/**
 * Per-feature totals over a date range, optionally for one segment of users (a user property
 * equal to a value). Reads only the daily tables of the range.
 */
export async function featureTotals(
  db: Pool,
  projectId: string,
  range: { start: string; end: string },
  seg: { key: string; value: string } | undefined,
  feature: string | null,
): Promise<FeatureRow[]> {
  const { rows } = await db.query<FeatureRow>(
    `with members as (
       select user_id from users where project_id = $1 and $4::text is not null and properties->>$4 = $5
     ),
     total as (
       select coalesce(sum(sessions), 0)::int as n from user_daily
       where project_id = $1 and day between $2 and $3 and ($4::text is null or user_id in (select user_id from members))
     ),
     usage as (
       select feature, user_id, sum(sessions_visible) as sv, sum(impressions) as imp, sum(uses) as uses,
              sum(empty_state_impressions) as esi, sum(data_volume_sum) as dvs, sum(data_volume_n) as dvn
       from feature_user_daily
       where project_id = $1 and day between $2 and $3 and ($6::text is null or feature = $6)
         and ($4::text is null or user_id in (select user_id from members))
       group by feature, user_id
     )
     select u.feature, sum(sv)::int as sessions_visible, count(*)::int as users_saw,
            (count(*) filter (where uses > 0))::int as users_used, sum(imp)::int as impressions,
            sum(esi)::int as empty_state_impressions, sum(dvs)::float8 as dv_sum, sum(dvn)::int as dv_n,
            (select n from total) as sessions,
            avg(extract(epoch from fu.first_used_at - m.first_seen_at) / 86400.0)
              filter (where u.uses > 0 and fu.first_used_at is not null)::float8 as avg_days
     from usage u
     left join feature_users fu on fu.project_id = $1 and fu.feature = u.feature and fu.user_id = u.user_id
     left join user_metrics m on m.project_id = $1 and m.user_id = u.user_id
     group by u.feature
     order by u.feature`,
    [projectId, range.start, range.end, seg?.key ?? null, seg?.value ?? null, feature],
  );
  return rows;
}

export function metricsOf(row: FeatureRow) {
  const vr = visibilityRate(row.sessions_visible, row.sessions);
  const ec = engagementConversion(row.users_used, row.users_saw);
  const days = row.avg_days ?? 0;
  return { vr, ec, days, dgs: discoveryGapScore(vr, ec, days) };
}

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
