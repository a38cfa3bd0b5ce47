import type { Pool } from '../lib/db.js';
import { discoveryGapScore, engagementConversion, visibilityRate } from '../domain/metrics.js';

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
 * The totals statement over answer tables: the project's (feature_daily, feature_reach,
 * project_daily) or, with `segmented`, one row per segment value from the segment tables
 * (migration 18; $5 the property, $6 its values). Distinct users come from the first edge of each
 * user in the range (migration 15).
 */
function totalsSql(segmented: boolean): string {
  const [daily, reach, sessions] = segmented
    ? ['segment_feature_daily', 'segment_feature_reach', 'segment_daily']
    : ['feature_daily', 'feature_reach', 'project_daily'];
  const bySegment = segmented ? 'segment_value, ' : '';
  const inSegment = segmented ? 'and segment_key = $5 and segment_value = any ($6::text[])' : '';
  return `with totals as (
       select ${bySegment}feature, sum(sessions_visible)::int as sessions_visible, sum(impressions)::int as impressions,
              sum(empty_state_impressions)::int as empty_state_impressions, sum(data_volume_sum)::float8 as dv_sum,
              sum(data_volume_n)::int as dv_n
       from ${daily}
       where project_id = $1 and day between $2 and $3 and ($4::text is null or feature = $4) ${inSegment}
       group by ${bySegment}feature
     ),
     reach as (
       select ${bySegment}feature, (sum(users) filter (where kind = 'seen'))::int as users_saw,
              (sum(users) filter (where kind = 'used'))::int as users_used,
              sum(discovered) filter (where kind = 'used') as discovered,
              sum(discovery_ms) filter (where kind = 'used') as discovery_ms
       from ${reach}
       where project_id = $1 and day between $2 and $3 and prev_day < $2 and ($4::text is null or feature = $4) ${inSegment}
       group by ${bySegment}feature
     ),
     sessions as (
       select ${bySegment}coalesce(sum(sessions), 0)::int as n
       from ${sessions} where project_id = $1 and day between $2 and $3 ${inSegment}
       ${segmented ? 'group by segment_value' : ''}
     )
     select ${segmented ? 't.segment_value as segment, ' : ''}t.feature, t.sessions_visible,
            coalesce(r.users_saw, 0) as users_saw, coalesce(r.users_used, 0) as users_used,
            t.impressions, t.empty_state_impressions, t.dv_sum, t.dv_n, coalesce(s.n, 0) as sessions,
            (r.discovery_ms / nullif(r.discovered, 0) / 86400000.0)::float8 as avg_days
     from totals t left join reach r using (${bySegment}feature)
     ${segmented ? 'left join sessions s using (segment_value)' : 'cross join sessions s'}
     order by ${segmented ? 't.segment_value, ' : ''}t.feature`;
}

/** Per-feature totals over a date range, from tables sized by features × days. */
export async function featureTotals(
  db: Pool,
  projectId: string,
  range: { start: string; end: string },
  feature: string | null,
): Promise<FeatureRow[]> {
  const { rows } = await db.query<FeatureRow>(totalsSql(false), [projectId, range.start, range.end, feature]);
  return rows;
}

/** One UTC day of a feature's usage (the detail's usage_over_time). */
export interface FeatureDay {
  date: string;
  users_saw: number;
  users_used: number;
  impressions: number;
  uses: number;
}

/**
 * A feature's usage per UTC day of the range, every day (zeros where nothing happened), from the
 * answer tables: impressions and uses from feature_daily; distinct users from feature_reach, where
 * a user active on a day has exactly one edge on that day (its previous day is always earlier).
 */
export async function featureDays(
  db: Pool,
  projectId: string,
  range: { start: string; end: string },
  feature: string,
): Promise<FeatureDay[]> {
  const { rows } = await db.query<FeatureDay>(
    `with days as (select d::date as day from generate_series($2::date, $3::date, interval '1 day') d),
     reach as (
       select day, (sum(users) filter (where kind = 'seen'))::int as users_saw,
              (sum(users) filter (where kind = 'used'))::int as users_used
       from feature_reach where project_id = $1 and feature = $4 and day between $2 and $3 group by day
     )
     select to_char(days.day, 'YYYY-MM-DD') as date, coalesce(r.users_saw, 0) as users_saw,
            coalesce(r.users_used, 0) as users_used, coalesce(f.impressions, 0) as impressions,
            coalesce(f.uses, 0) as uses
     from days
     left join reach r using (day)
     left join feature_daily f on f.project_id = $1 and f.feature = $4 and f.day = days.day
     order by days.day`,
    [projectId, range.start, range.end, feature],
  );
  return rows;
}

/**
 * The totals per value of user property `key` (the given values, or its first 50 values when
 * null): from the segment answer tables when `key` is one of the project's segment properties,
 * otherwise from the members' per-user rows. `values` lists every segment answered, rows only
 * those with feature activity.
 */
export async function segmentTotals(
  db: Pool,
  projectId: string,
  range: { start: string; end: string },
  segment: { key: string; values: string[] | null },
  feature: string | null,
  segmentProperties: readonly string[],
): Promise<{ values: string[]; rows: (FeatureRow & { segment: string })[] }> {
  const preAggregated = segmentProperties.includes(segment.key);
  const values =
    segment.values ??
    (
      await db.query<{ value: string }>(
        preAggregated
          ? `select distinct segment_value as value from segment_daily where project_id = $1 and segment_key = $2
             order by 1 limit 50`
          : `select distinct properties->>$2 as value from users where project_id = $1 and properties ? $2
             order by 1 limit 50`,
        [projectId, segment.key],
      )
    ).rows.map((r) => r.value);
  const rows = preAggregated
    ? (
        await db.query<FeatureRow & { segment: string }>(totalsSql(true), [
          projectId,
          range.start,
          range.end,
          feature,
          segment.key,
          values,
        ])
      ).rows
    : await segmentFeatureTotals(db, projectId, range, segment.key, values, feature);
  return { values, rows };
}

/**
 * The same totals for the users whose current property `key` equals one of `values`, one row per
 * value and feature. Segments are arbitrary user properties, so these read the members' per-user
 * rows (indexed by user): their cost grows with the segments' users, not with the project's.
 */
export async function segmentFeatureTotals(
  db: Pool,
  projectId: string,
  range: { start: string; end: string },
  key: string,
  values: string[],
  feature: string | null,
): Promise<(FeatureRow & { segment: string })[]> {
  const { rows } = await db.query<FeatureRow & { segment: string }>(
    `with members as (
       select user_id, properties->>$4 as segment from users
       where project_id = $1 and properties->>$4 = any ($5::text[])
     ),
     total as (
       select m.segment, sum(d.sessions)::int as n
       from members m join user_daily d on d.project_id = $1 and d.user_id = m.user_id and d.day between $2 and $3
       group by m.segment
     ),
     usage as (
       select m.segment, f.feature, f.user_id, sum(f.sessions_visible) as sv, sum(f.impressions) as imp,
              sum(f.uses) as uses, sum(f.empty_state_impressions) as esi, sum(f.data_volume_sum) as dvs,
              sum(f.data_volume_n) as dvn
       from members m
       join feature_user_daily f on f.project_id = $1 and f.user_id = m.user_id and f.day between $2 and $3
       where $6::text is null or f.feature = $6
       group by m.segment, f.feature, f.user_id
     )
     select u.segment, u.feature, sum(sv)::int as sessions_visible, count(*)::int as users_saw,
            (count(*) filter (where uses > 0))::int as users_used, sum(imp)::int as impressions,
            sum(esi)::int as empty_state_impressions, sum(dvs)::float8 as dv_sum, sum(dvn)::int as dv_n,
            coalesce(min(t.n), 0) as sessions,
            (sum(feature_discovery_ms(fu.first_used_at, m.first_seen_at)) filter (where u.uses > 0)
              / nullif(count(feature_discovery_ms(fu.first_used_at, m.first_seen_at)) filter (where u.uses > 0), 0)
              / 86400000.0)::float8 as avg_days
     from usage u
     left join total t on t.segment = u.segment
     left join feature_users fu on fu.project_id = $1 and fu.feature = u.feature and fu.user_id = u.user_id
     left join user_metrics m on m.project_id = $1 and m.user_id = u.user_id
     group by u.segment, u.feature
     order by u.segment, u.feature`,
    [projectId, range.start, range.end, key, values, feature],
  );
  return rows;
}

export function metricsOf(row: FeatureRow) {
  const vr = visibilityRate(row.sessions_visible, row.sessions);
  const ec = engagementConversion(row.users_used, row.users_saw);
  const days = row.avg_days ?? 0;
  return { vr, ec, days, dgs: discoveryGapScore(vr, ec, days) };
}

/** Whether any user of the project ever saw or used the feature. */
export async function featureKnown(db: Pool, projectId: string, feature: string): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>(
    'select exists (select 1 from feature_users where project_id = $1 and feature = $2) as known',
    [projectId, feature],
  );
  return rows[0]!.known;
}

/**
 * Sessions by the user's tenure on the day of the session, in the range: the feature's visible ones
 * (under its name) and all ('' holds all sessions).
 */
export async function tenureSessions(
  db: Pool,
  projectId: string,
  feature: string,
  range: { start: string; end: string },
): Promise<{ feature: string; first_week: number; month_2_plus: number }[]> {
  const { rows } = await db.query<{ feature: string; first_week: number; month_2_plus: number }>(
    `select feature, sum(first_week)::int as first_week, sum(month_2_plus)::int as month_2_plus from tenure_sessions
     where project_id = $1 and feature in ('', $2) and day between $3 and $4 group by feature`,
    [projectId, feature, range.start, range.end],
  );
  return rows;
}

/** How the users who discovered the feature in the range (their first use) found it, by method. */
export async function discoveryMethods(
  db: Pool,
  projectId: string,
  feature: string,
  range: { start: string; end: string },
): Promise<{ method: string; users: number }[]> {
  const { rows } = await db.query<{ method: string; users: number }>(
    `select method, sum(users)::int as users from feature_discovery
     where project_id = $1 and feature = $2 and day between $3 and $4 group by method`,
    [projectId, feature, range.start, range.end],
  );
  return rows;
}
