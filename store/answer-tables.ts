import { type AdditiveTable, AdditiveDeltas, big, int } from './additive-deltas.js';
import { FEATURE_FACTS } from './contributions.js';
import { type AnalyticsOverrides, analyticsConfig } from '../domain/analytics-config.js';
import { type GrownSession, featureFirsts } from '../domain/contribution/growth.js';
import type { SessionContribution } from '../domain/contribution/types.js';
import type { PoolClient } from '../lib/db.js';
import { lockUsers, shareProjects } from './locks.js';

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
  keys: [
    ['feature', 'text'],
    ['day', 'date'],
  ],
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
function frictionReach(table: string, perUser: string, keys: string[]): { spec: AdditiveTable; sql: string } {
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

const SEGMENT_DAILY: AdditiveTable = {
  table: 'segment_daily',
  keys: [...SEGMENT_KEYS, ['day', 'date']],
  values: [['sessions', int]],
};

const SEGMENT_FEATURE_DAILY: AdditiveTable = {
  table: 'segment_feature_daily',
  keys: [...SEGMENT_KEYS, ['feature', 'text'], ['day', 'date']],
  values: FEATURE_FACTS,
};

const SEGMENT_REACH: AdditiveTable = {
  ...REACH,
  table: 'segment_feature_reach',
  keys: [...SEGMENT_KEYS, ...REACH.keys],
};

/** The longest user property value that is a segment (docs/metrics.md §10). */
export const SEGMENT_VALUE_MAX = 200;

/** The users and the first day of their per-day rows that a share reads ($3, see ChangedUser). */
const USERS = `u as (
    select project_id, user_id, min(from_day) as from_day
    from unnest($1::uuid[], $2::text[], $3::date[]) as u(project_id, user_id, from_day) group by 1, 2
  )`;

/** Each (user, feature) active day is an edge from the user's previous active day of the feature. */
const EDGES = `
  f as materialized (
    select d.project_id, d.feature, d.user_id, d.day, d.uses, u.from_day
    from u join feature_user_daily d using (project_id, user_id) where d.day >= u.from_day
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

const REACH_SQL = `with ${USERS}, ${EDGES}
  select project_id, feature, kind, day::text, prev_day::text, count(*)::int as users, count(ms)::int as discovered,
         coalesce(sum(ms), 0)::bigint as discovery_ms
  from e group by 1, 2, 3, 4, 5`;

/** Distinct users with a session over any date range: each of a user's days with sessions is an edge from the previous one. */
const USER_REACH: AdditiveTable = {
  table: 'user_reach',
  keys: [
    ['day', 'date'],
    ['prev_day', 'date'],
  ],
  values: [['users', int]],
};

const USER_REACH_SQL = `with ${USERS},
  e as (
    select r.project_id, r.day, ${previousDay('user_daily', [], ' and q.sessions > 0')} as prev_day
    from (select d.*, u.from_day from u join user_daily d using (project_id, user_id)
          where d.sessions > 0 and d.day >= u.from_day) r
  )
  select project_id, day::text, prev_day::text, count(*)::int as users from e group by 1, 2, 3`;

/** Sessions (feature '') and sessions with the feature visible per day, by the user's tenure on that day. */
const TENURE_SQL = `with ${USERS},
  m as (select m.project_id, m.user_id, m.first_seen_at, u.from_day from u join user_metrics m using (project_id, user_id)),
  t as (
    select d.project_id, '' as feature, d.day, d.sessions as n, m.first_seen_at
    from m join user_daily d using (project_id, user_id) where d.day >= m.from_day
    union all
    select f.project_id, f.feature, f.day, f.sessions_visible, m.first_seen_at
    from m join feature_user_daily f using (project_id, user_id) where f.day >= m.from_day
  )
  select project_id, feature, day::text,
         coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'first_week'), 0)::int as first_week,
         coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'month_2_plus'), 0)::int as month_2_plus
  from t group by 1, 2, 3`;

/** Users by discovery method and the UTC day of their first use. */
const DISCOVERY_SQL = `with ${USERS}
  select fu.project_id, fu.feature, coalesce(fu.first_use_source, '') as method,
         (fu.first_used_at at time zone 'utc')::date::text as day, count(*)::int as users
  from u join feature_users fu using (project_id, user_id)
  where fu.first_used_at is not null
  group by 1, 2, 3, 4`;

/**
 * The users' segments: one row per segment property of their project ($4: project → keys) that
 * they hold a scalar value of, at most SEGMENT_VALUE_MAX characters (a segment value is part of a
 * primary key: a longer one would make every batch of the user fail).
 */
const MEMBERS = `m as materialized (
    select u.project_id, u.user_id, u.from_day, k.key as segment_key, p.properties->>k.key as segment_value
    from u join users p using (project_id, user_id)
    cross join lateral jsonb_array_elements_text($4::jsonb -> u.project_id::text) as k(key)
    where jsonb_typeof(p.properties->k.key) in ('string', 'number', 'boolean')
      and length(p.properties->>k.key) <= ${SEGMENT_VALUE_MAX}
  )`;

const SEGMENT_DAILY_SQL = `with ${USERS}, ${MEMBERS}
  select m.project_id, m.segment_key, m.segment_value, d.day::text, sum(d.sessions)::int as sessions
  from m join user_daily d using (project_id, user_id) where d.day >= m.from_day group by 1, 2, 3, 4`;

const SEGMENT_FEATURE_DAILY_SQL = `with ${USERS}, ${MEMBERS}
  select m.project_id, m.segment_key, m.segment_value, d.feature, d.day::text,
         sum(d.sessions_visible)::int as sessions_visible, sum(d.impressions)::int as impressions, sum(d.uses)::int as uses,
         sum(d.empty_state_impressions)::int as empty_state_impressions, sum(d.data_volume_sum)::float8 as data_volume_sum,
         sum(d.data_volume_n)::int as data_volume_n
  from m join feature_user_daily d using (project_id, user_id) where d.day >= m.from_day group by 1, 2, 3, 4, 5`;

const SEGMENT_REACH_SQL = `with ${USERS}, ${MEMBERS}, ${EDGES}
  select m.project_id, m.segment_key, m.segment_value, e.feature, e.kind, e.day::text, e.prev_day::text,
         count(*)::int as users, count(e.ms)::int as discovered, coalesce(sum(e.ms), 0)::bigint as discovery_ms
  from m join e using (project_id, user_id) group by 1, 2, 3, 4, 5, 6, 7`;

/**
 * What a share reads of one session beyond its id, day and start (see sharesUnmoved), as a string.
 * The per-user rows hold one `sessions_visible` per feature of a session and are present while a
 * count is positive; the first sighting and use of a feature and the user's first session are the
 * least over the sessions.
 */
const nothing = () => '';
const sorted = (keys: string[]) => JSON.stringify([...new Set(keys)].sort());
const featureNames = (c: SessionContribution) => sorted(c.features.map((f) => f.feature));
const firstsOfFeatures = (c: SessionContribution) =>
  sorted(c.features.map((f) => `${f.feature}\u0000${featureFirsts(f)}`));
const featureFacts = (c: SessionContribution) =>
  sorted(
    c.features.map((f) =>
      JSON.stringify([f.feature, f.impressions, f.uses, f.empty_state_impressions, f.data_volume_sum, f.data_volume_n]),
    ),
  );
const frictionPages = (c: SessionContribution) => sorted(c.signals.flatMap((s) => (s.page === null ? [] : [s.page])));
const frictionElements = (c: SessionContribution) =>
  sorted(c.signals.flatMap((s) => (s.page === null || s.element === null ? [] : [`${s.page}\u0000${s.element}`])));

/**
 * Each answer table, the statement giving a set of users' share of it, what that share reads of a
 * session, whether it reads segments ($4), and whether it reads feature_users alone (which
 * `replay --from` leaves in place for a user whose sessions it took out, until their events come
 * back): every other share of a user without stored sessions is nothing.
 */
const SHARES: {
  spec: AdditiveTable;
  sql: string;
  reads: (c: SessionContribution) => string;
  segments?: true;
  featureUsers?: true;
}[] = [
  { spec: REACH, sql: REACH_SQL, reads: firstsOfFeatures },
  { ...frictionReach('friction_page_reach', 'friction_page_users', ['page']), reads: frictionPages },
  {
    ...frictionReach('friction_element_reach', 'friction_element_users', ['page', 'element']),
    reads: frictionElements,
  },
  { spec: USER_REACH, sql: USER_REACH_SQL, reads: nothing },
  { spec: TENURE, sql: TENURE_SQL, reads: featureNames },
  { spec: DISCOVERY, sql: DISCOVERY_SQL, reads: firstsOfFeatures, featureUsers: true },
  { spec: SEGMENT_DAILY, sql: SEGMENT_DAILY_SQL, reads: nothing, segments: true },
  { spec: SEGMENT_FEATURE_DAILY, sql: SEGMENT_FEATURE_DAILY_SQL, reads: featureFacts, segments: true },
  { spec: SEGMENT_REACH, sql: SEGMENT_REACH_SQL, reads: firstsOfFeatures, segments: true },
];

/**
 * The answer tables a change of a user's sessions cannot move: one that only grew sessions
 * (grownSessions), each pair reading the same for the table's share. The user's per-user rows then
 * move only within rows that stay present, by what the share does not read, and every least over
 * the sessions stays. Any other change moves every table.
 */
export function sharesUnmoved(grown: GrownSession[] | null): Set<string> {
  if (grown === null) return new Set();
  // Shares that read the same of a session are compared once.
  const same = new Map<(c: SessionContribution) => string, boolean>();
  const unmoved = new Set<string>();
  for (const { spec, reads } of SHARES) {
    let equal = same.get(reads);
    if (equal === undefined) same.set(reads, (equal = grown.every(([o, c]) => reads(o) === reads(c))));
    if (equal) unmoved.add(spec.table);
  }
  return unmoved;
}

type User = { projectId: string; userId: string };

/**
 * A user whose change moves only sessions that start on `from` (a UTC day, YYYY-MM-DD) or later;
 * without it, any. The user's share is then read from `from` on: the edges before it cannot move.
 * A per-day row is on its sessions' day, so none before `from` moves. What every edge of the user
 * depends on, the first session (tenure, days to discovery) and a feature's first use (days to
 * discovery), can move only with a session starting on `from` or later; the user's sessions do not
 * overlap, so every session after it, and every day the values are read on, is from `from` on too.
 * `unmoved`: the answer tables the change cannot move (sharesUnmoved), whose share is not read.
 * `unseen`: the user had no stored session before the change, so no per-user daily row: their share
 * before it is nothing, and is not read (but for feature_discovery, see SHARES).
 */
export type ChangedUser = User & { from?: string; unmoved?: ReadonlySet<string>; unseen?: boolean };

/** Which answer tables a writer moves: all, or only the segment tables (a change of user properties). */
export type AnswerTables = 'all' | 'segments';

async function addShares(
  client: PoolClient,
  users: ChangedUser[],
  segmentKeys: Record<string, readonly string[]>,
  deltas: AdditiveDeltas,
  sign: 1 | -1,
  tables: AnswerTables,
): Promise<void> {
  // Without segment properties the users have no segments: their statements would read the
  // users' rows to find none.
  const anySegments = Object.values(segmentKeys).some((keys) => keys.length > 0);
  for (const { spec, sql, segments, featureUsers } of SHARES) {
    if ((tables === 'segments' && !segments) || (segments && !anySegments)) continue;
    const nothingBefore = (u: ChangedUser) => sign === -1 && u.unseen === true && !featureUsers;
    const moved = users.filter((u) => !u.unmoved?.has(spec.table) && !nothingBefore(u));
    if (moved.length === 0) continue;
    const params = [moved.map((u) => u.projectId), moved.map((u) => u.userId), moved.map((u) => u.from ?? '-infinity')];
    const { rows } = await client.query<Record<string, unknown> & { project_id: string }>(
      sql,
      segments ? [...params, JSON.stringify(segmentKeys)] : params,
    );
    for (const row of rows) deltas.add(spec, row.project_id, row, sign);
  }
}

/**
 * The projects' segment properties, read under a share lock on their rows: a change of
 * `segments.properties` (which rebuilds the segment tables, rebuildSegmentTables) waits for the
 * writers that read the old ones, and writers after it read the new ones.
 */
export async function segmentProperties(
  client: PoolClient,
  projectIds: string[],
): Promise<Record<string, readonly string[]>> {
  const rows = await shareProjects(client, projectIds);
  return Object.fromEntries(
    rows.map((r) => [
      r.project_id,
      analyticsConfig((r.settings.analytics ?? {}) as AnalyticsOverrides).segments.properties,
    ]),
  );
}

/**
 * Runs `change` (which may change any per-user row of `users`, or with tables = 'segments' only
 * their properties) and moves the answer tables from the users' share before it to their share
 * after it, in the caller's transaction — in the order of store/locks.ts: the users' locks, then
 * their projects' rows, then the tables.
 */
export async function keepingAnswerTables<T>(
  client: PoolClient,
  users: ChangedUser[],
  change: () => Promise<T>,
  tables: AnswerTables = 'all',
): Promise<T> {
  const { result, deltas } = await answerTableShares(client, users, change, tables);
  await deltas.apply(client);
  return result;
}

/**
 * keepingAnswerTables, leaving the answer tables' changes to the caller to apply (last in its
 * transaction, so that their shared rows stay locked for as short a time as possible).
 */
export async function answerTableShares<T>(
  client: PoolClient,
  users: ChangedUser[],
  change: () => Promise<T>,
  tables: AnswerTables = 'all',
): Promise<{ result: T; deltas: AdditiveDeltas }> {
  const deltas = new AdditiveDeltas();
  if (users.length === 0) return { result: await change(), deltas };
  await lockUsers(client, users);
  const segmentKeys = await segmentProperties(
    client,
    users.map((u) => u.projectId),
  );
  await addShares(client, users, segmentKeys, deltas, -1, tables);
  const result = await change();
  await addShares(client, users, segmentKeys, deltas, 1, tables);
  return { result, deltas };
}

/**
 * After a change of the project's `segments.properties` (in its transaction, project row locked):
 * the segment tables rebuilt from every user's per-user rows with the new properties.
 */
export async function rebuildSegmentTables(client: PoolClient, projectId: string): Promise<void> {
  for (const { spec, segments } of SHARES) {
    if (segments) await client.query(`delete from ${spec.table} where project_id = $1`, [projectId]);
  }
  const { rows } = await client.query<{ user_id: string }>('select user_id from users where project_id = $1', [
    projectId,
  ]);
  const users = rows.map((r) => ({ projectId, userId: r.user_id }));
  const deltas = new AdditiveDeltas();
  await addShares(client, users, await segmentProperties(client, [projectId]), deltas, 1, 'segments');
  await deltas.apply(client);
}
