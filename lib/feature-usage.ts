import type { Pool } from './db.js';
import { discoveryGapScore, engagementConversion, visibilityRate } from './metrics.js';

export interface FeatureRow {
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
