import { type AdditiveTable, big, int } from './additive-deltas.js';
import { FEATURE_FACTS } from './contributions.js';

/** The longest user property value that is a segment (docs/metrics.md §10). */
const SEGMENT_VALUE_MAX = 200;

/** The answer tables' columns, and the statements giving a set of users' share of each (store/answer-tables.ts). */
export const REACH: AdditiveTable = {
  table: 'feature_reach',
  keys: [
    ['feature', 'text'],
    ['kind', 'text'],
    ['day', 'date'],
    ['prev_day', 'date'],
  ],
  values: [
    ['users', int],
    ['discovered', int],
    ['discovery_ms', big],
  ],
};

export const TENURE: AdditiveTable = {
  table: 'tenure_sessions',
  keys: [
    ['feature', 'text'],
    ['day', 'date'],
  ],
  values: [
    ['first_week', int],
    ['month_2_plus', int],
  ],
};

export const DISCOVERY: AdditiveTable = {
  table: 'feature_discovery',
  keys: [
    ['feature', 'text'],
    ['method', 'text'],
    ['day', 'date'],
  ],
  values: [['users', int]],
};

/**
 * The day before a per-user row `r` (of `table`, alias `r` with a `from_day`) among the user's rows
 * with the same `keys` (and `filter`): the previous row read, else the latest row before the first
 * day read (one probe of the table's (project_id, user_id, keys…, day) index), else `-infinity`.
 */
function previousDay(table: string, keys: string[], filter = ''): string {
  const same = ['project_id', 'user_id', ...keys].map((k) => `q.${k} = r.${k}`).join(' and ');
  const partition = ['project_id', ...keys, 'user_id'].map((k) => `r.${k}`).join(', ');
  return `coalesce(lag(r.day) over (partition by ${partition} order by r.day),
                  (select max(q.day) from ${table} q where ${same}${filter} and q.day < r.from_day), '-infinity')`;
}

/**
 * Distinct users with friction on a page, or on an element, over any date range: each day a user
 * had a signal there is an edge from the user's previous such day there (`-infinity` for the first).
 */
export function frictionReach(table: string, perUser: string, keys: string[]): { spec: AdditiveTable; sql: string } {
  const columns = keys.map((k) => `r.${k}`).join(', ');
  return {
    spec: {
      table,
      keys: [...keys.map((k): [string, string] => [k, 'text']), ['day', 'date'], ['prev_day', 'date']],
      values: [['users', int]],
    },
    sql: `with ${USERS},
  e as (
    select r.project_id, ${columns}, r.day, ${previousDay(perUser, keys)} as prev_day
    from (select p.*, u.from_day from u join ${perUser} p using (project_id, user_id) where p.day >= u.from_day) r
  )
  select project_id, ${keys.join(', ')}, day::text, prev_day::text, count(*)::int as users
  from e group by project_id, ${keys.join(', ')}, day, prev_day`,
  };
}

const SEGMENT_KEYS: [string, string][] = [
  ['segment_key', 'text'],
  ['segment_value', 'text'],
];

export const SEGMENT_DAILY: AdditiveTable = {
  table: 'segment_daily',
  keys: [...SEGMENT_KEYS, ['day', 'date']],
  values: [['sessions', int]],
};

export const SEGMENT_FEATURE_DAILY: AdditiveTable = {
  table: 'segment_feature_daily',
  keys: [...SEGMENT_KEYS, ['feature', 'text'], ['day', 'date']],
  values: FEATURE_FACTS,
};

export const SEGMENT_REACH: AdditiveTable = {
  ...REACH,
  table: 'segment_feature_reach',
  keys: [...SEGMENT_KEYS, ...REACH.keys],
};

/**
 * The users (one row each), the first day of their per-day rows that a share reads ($3) and the
 * features whose rows it reads ($4: a JSON array of names, or JSON null for all), see ChangedUser.
 */
const USERS = `u as (
    select * from rows from (unnest($1::uuid[]), unnest($2::text[]), unnest($3::date[]), jsonb_array_elements($4::jsonb))
      as u(project_id, user_id, from_day, features)
  )`;

/** Whether a share reads the rows of feature `column` for the user of `u` (a CTE with USERS' columns). */
const readsFeature = (u: string, column: string) => `(${u}.features = 'null'::jsonb or ${u}.features ? ${column})`;

/** Each (user, feature) active day is an edge from the user's previous active day of the feature. */
const EDGES = `
  f as materialized (
    select d.project_id, d.feature, d.user_id, d.day, d.uses, u.from_day
    from u join feature_user_daily d using (project_id, user_id) where d.day >= u.from_day and ${readsFeature('u', 'd.feature')}
  ),
  e as (
    select r.project_id, r.user_id, r.feature, 'seen' as kind, r.day,
           ${previousDay('feature_user_daily', ['feature'])} as prev_day, null::bigint as ms
    from f r
    union all
    select r.project_id, r.user_id, r.feature, 'used', r.day,
           ${previousDay('feature_user_daily', ['feature'], ' and q.uses > 0')},
           feature_discovery_ms(fu.first_used_at, m.first_seen_at)
    from f r left join feature_users fu using (project_id, feature, user_id) left join user_metrics m using (project_id, user_id)
    where r.uses > 0
  )`;

export const REACH_SQL = `with ${USERS}, ${EDGES}
  select project_id, feature, kind, day::text, prev_day::text, count(*)::int as users, count(ms)::int as discovered,
         coalesce(sum(ms), 0)::bigint as discovery_ms
  from e group by 1, 2, 3, 4, 5`;

/** Distinct users with a session over any date range: each of a user's days with sessions is an edge from the previous one. */
export const USER_REACH: AdditiveTable = {
  table: 'user_reach',
  keys: [
    ['day', 'date'],
    ['prev_day', 'date'],
  ],
  values: [['users', int]],
};

export const USER_REACH_SQL = `with ${USERS},
  e as (
    select r.project_id, r.day, ${previousDay('user_daily', [], ' and q.sessions > 0')} as prev_day
    from (select d.*, u.from_day from u join user_daily d using (project_id, user_id)
          where d.sessions > 0 and d.day >= u.from_day) r
  )
  select project_id, day::text, prev_day::text, count(*)::int as users from e group by 1, 2, 3`;

/** Sessions (feature '') and sessions with the feature visible per day, by the user's tenure on that day. */
export const TENURE_SQL = `with ${USERS},
  m as (
    select m.project_id, m.user_id, m.first_seen_at, u.from_day, u.features
    from u join user_metrics m using (project_id, user_id)
  ),
  t as (
    select d.project_id, '' as feature, d.day, d.sessions as n, m.first_seen_at
    from m join user_daily d using (project_id, user_id) where d.day >= m.from_day and m.features = 'null'::jsonb
    union all
    select f.project_id, f.feature, f.day, f.sessions_visible, m.first_seen_at
    from m join feature_user_daily f using (project_id, user_id) where f.day >= m.from_day and ${readsFeature('m', 'f.feature')}
  )
  select project_id, feature, day::text,
         coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'first_week'), 0)::int as first_week,
         coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'month_2_plus'), 0)::int as month_2_plus
  from t group by 1, 2, 3`;

/** Users by discovery method and the UTC day of their first use. */
export const DISCOVERY_SQL = `with ${USERS}
  select fu.project_id, fu.feature, coalesce(fu.first_use_source, '') as method,
         (fu.first_used_at at time zone 'utc')::date::text as day, count(*)::int as users
  from u join feature_users fu using (project_id, user_id)
  where fu.first_used_at is not null and ${readsFeature('u', 'fu.feature')}
  group by 1, 2, 3, 4`;

/**
 * The users' segments: one row per segment property of their project ($5: project → keys) that
 * they hold a scalar value of, at most SEGMENT_VALUE_MAX characters (a segment value is part of a
 * primary key: a longer one would make every batch of the user fail).
 */
const MEMBERS = `m as materialized (
    select u.project_id, u.user_id, u.from_day, k.key as segment_key, p.properties->>k.key as segment_value
    from u join users p using (project_id, user_id)
    cross join lateral jsonb_array_elements_text($5::jsonb -> u.project_id::text) as k(key)
    where jsonb_typeof(p.properties->k.key) in ('string', 'number', 'boolean')
      and length(p.properties->>k.key) <= ${SEGMENT_VALUE_MAX}
  )`;

export const SEGMENT_DAILY_SQL = `with ${USERS}, ${MEMBERS}
  select m.project_id, m.segment_key, m.segment_value, d.day::text, sum(d.sessions)::int as sessions
  from m join user_daily d using (project_id, user_id) where d.day >= m.from_day group by 1, 2, 3, 4`;

export const SEGMENT_FEATURE_DAILY_SQL = `with ${USERS}, ${MEMBERS}
  select m.project_id, m.segment_key, m.segment_value, d.feature, d.day::text,
         sum(d.sessions_visible)::int as sessions_visible, sum(d.impressions)::int as impressions, sum(d.uses)::int as uses,
         sum(d.empty_state_impressions)::int as empty_state_impressions, sum(d.data_volume_sum)::float8 as data_volume_sum,
         sum(d.data_volume_n)::int as data_volume_n
  from m join feature_user_daily d using (project_id, user_id) where d.day >= m.from_day group by 1, 2, 3, 4, 5`;

export const SEGMENT_REACH_SQL = `with ${USERS}, ${MEMBERS}, ${EDGES}
  select m.project_id, m.segment_key, m.segment_value, e.feature, e.kind, e.day::text, e.prev_day::text,
         count(*)::int as users, count(e.ms)::int as discovered, coalesce(sum(e.ms), 0)::bigint as discovery_ms
  from m join e using (project_id, user_id) group by 1, 2, 3, 4, 5, 6, 7`;
