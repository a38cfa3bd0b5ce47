import { type AdditiveTable, AdditiveDeltas, big, int } from './additive-deltas.js';
import type { PoolClient } from './db.js';

/**
 * The answer tables of the feature and friction GETs that are not sums of session contributions
 * (migrations 15 and 17, docs/metrics.md §10): what a user adds to them depends on all of the
 * user's days. They are kept as sums over users: a writer that changes users' per-user rows reads
 * the users' share before and after its change and writes the difference.
 */
const REACH: AdditiveTable = {
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

const TENURE: AdditiveTable = {
  table: 'tenure_sessions',
  keys: [['feature', 'text']],
  values: [
    ['first_week', int],
    ['month_2_plus', int],
  ],
};

const DISCOVERY: AdditiveTable = {
  table: 'feature_discovery',
  keys: [
    ['feature', 'text'],
    ['method', 'text'],
  ],
  values: [['users', int]],
};

const PAGE_REACH: AdditiveTable = {
  table: 'friction_page_reach',
  keys: [
    ['page', 'text'],
    ['day', 'date'],
    ['prev_day', 'date'],
  ],
  values: [['users', int]],
};

const USERS = `u as (select distinct * from unnest($1::uuid[], $2::text[]) as u(project_id, user_id))`;

/** Each (user, feature) active day is an edge from the user's previous active day of the feature. */
const REACH_SQL = `with ${USERS},
  f as materialized (
    select d.project_id, d.feature, d.user_id, d.day, d.uses from u join feature_user_daily d using (project_id, user_id)
  ),
  v as (
    select fu.project_id, fu.feature, fu.user_id, feature_discovery_ms(fu.first_used_at, m.first_seen_at) as ms
    from u join feature_users fu using (project_id, user_id) left join user_metrics m using (project_id, user_id)
  ),
  e as (
    select project_id, feature, 'seen' as kind, day,
           coalesce(lag(day) over (partition by project_id, feature, user_id order by day), '-infinity') as prev_day,
           null::bigint as ms
    from f
    union all
    select f.project_id, f.feature, 'used', f.day,
           coalesce(lag(f.day) over (partition by f.project_id, f.feature, f.user_id order by f.day), '-infinity'), v.ms
    from f left join v using (project_id, feature, user_id)
    where f.uses > 0
  )
  select project_id, feature, kind, day::text, prev_day::text, count(*)::int as users, count(ms)::int as discovered,
         coalesce(sum(ms), 0)::bigint as discovery_ms
  from e group by 1, 2, 3, 4, 5`;

/** Sessions (feature '') and sessions with the feature visible, by the user's tenure on their day. */
const TENURE_SQL = `with ${USERS},
  m as (select m.project_id, m.user_id, m.first_seen_at from u join user_metrics m using (project_id, user_id)),
  t as (
    select d.project_id, '' as feature, d.day, d.sessions as n, m.first_seen_at
    from m join user_daily d using (project_id, user_id)
    union all
    select f.project_id, f.feature, f.day, f.sessions_visible, m.first_seen_at
    from m join feature_user_daily f using (project_id, user_id)
  )
  select project_id, feature,
         coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'first_week'), 0)::int as first_week,
         coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'month_2_plus'), 0)::int as month_2_plus
  from t group by 1, 2`;

const DISCOVERY_SQL = `with ${USERS}
  select fu.project_id, fu.feature, coalesce(fu.first_use_source, '') as method, count(*)::int as users
  from u join feature_users fu using (project_id, user_id)
  where fu.first_used_at is not null
  group by 1, 2, 3`;

/** Each day a user had friction on a page is an edge from the user's previous such day on the page. */
const PAGE_REACH_SQL = `with ${USERS},
  e as (
    select p.project_id, p.page, p.day,
           coalesce(lag(p.day) over (partition by p.project_id, p.page, p.user_id order by p.day), '-infinity') as prev_day
    from u join friction_page_users p using (project_id, user_id)
  )
  select project_id, page, day::text, prev_day::text, count(*)::int as users from e group by 1, 2, 3, 4`;

const SHARES: [AdditiveTable, string][] = [
  [REACH, REACH_SQL],
  [PAGE_REACH, PAGE_REACH_SQL],
  [TENURE, TENURE_SQL],
  [DISCOVERY, DISCOVERY_SQL],
];

type User = { projectId: string; userId: string };

async function addShares(client: PoolClient, users: User[], deltas: AdditiveDeltas, sign: 1 | -1): Promise<void> {
  const params = [users.map((u) => u.projectId), users.map((u) => u.userId)];
  for (const [spec, sql] of SHARES) {
    const { rows } = await client.query<Record<string, unknown> & { project_id: string }>(sql, params);
    for (const row of rows) deltas.add(spec, row.project_id, row, sign);
  }
}

/**
 * Runs `change` (which may change any per-user row of `users`) and moves the answer tables from
 * the users' share before it to their share after it, in the caller's transaction.
 */
export async function keepingAnswerTables<T>(client: PoolClient, users: User[], change: () => Promise<T>): Promise<T> {
  if (users.length === 0) return change();
  const deltas = new AdditiveDeltas();
  await addShares(client, users, deltas, -1);
  const result = await change();
  await addShares(client, users, deltas, 1);
  await deltas.apply(client);
  return result;
}
