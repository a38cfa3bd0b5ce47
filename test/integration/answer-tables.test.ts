import assert from 'node:assert/strict';
import { type PoolClient, inTransaction } from '../../lib/db.js';
import { featureTotals, segmentFeatureTotals, segmentTotals } from '../../store/feature-usage.js';
import { elementTotals, pageTotals } from '../../store/friction-points.js';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { eraseUser } from '../../store/user-data.js';
import { refreshUserMetrics } from '../../store/user-metrics.js';
import { projectAnalyticsConfigs } from '../../store/project-config.js';
import { analyticsSink, applyEvents } from '../../processors/analytics-sink/runner.js';
import { PartitionSessions } from '../../processors/sessionize/core.js';
import { chainRecord } from '../../processors/sessionize/record.js';
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import { call, closeServices, count, newProject, services, startTestApi, partitionWrites } from './helpers.js';
import { seededRandom } from '../../domain/random.js';
import { ANSWER_TABLES } from '../../store/tables.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 8, 1);
const FEATURES = ['export', 'filters', 'share'];
const SOURCES = ['browsing', 'tooltip', 'docs', 'shortcut'];
const PAGES = ['/home', '/reports', '/settings'];

/** Users visiting on scattered days over 60 days, seeing features and sometimes using them. */
function scenario(projectId: string, seed: number): TrackedEventRecord[] {
  const rnd = seededRandom(seed);
  const events: TrackedEventRecord[] = [];
  for (let u = 0; u < 14; u++) {
    for (let day = 0; day < 60; day++) {
      if (rnd() > 0.3) continue;
      let t = START + day * DAY + Math.floor(rnd() * 20) * 3_600_000;
      const push = (event: string, properties: Record<string, unknown>) => {
        t += 1000 + Math.floor(rnd() * 20_000);
        events.push({
          project_id: projectId,
          message_id: `m-${u}-${events.length}`,
          user_id: `u${u}`,
          event,
          timestamp: t,
          received_at: t + 500,
          properties: JSON.stringify(properties),
        });
      };
      const page = PAGES[Math.floor(rnd() * PAGES.length)]!;
      push('page_view', { page });
      // Some days three clicks on #save, the first unanswered: a dead click on the page and on the
      // element (friction_page_users and _reach, friction_element_users and _reach).
      if (rnd() < 0.35) for (let c = 0; c < 3; c++) push('click', { element: '#save', ui_response: c > 0 });
      for (const feature of FEATURES) {
        if (rnd() < 0.5) push('feature_impression', { feature, ui_context: { empty_state: rnd() < 0.3 } });
        if (rnd() < 0.25) {
          push('feature_used', {
            feature,
            source: SOURCES[Math.floor(rnd() * SOURCES.length)],
            ui_context: { data_volume: Math.floor(rnd() * 100) },
          });
        }
      }
    }
  }
  // u14's sessions start just before midnight: a session's facts count on the day it started, its
  // later events (a first use of export among them) fall on the next day, that of the next session.
  for (let day = 0; day < 60; day++) {
    if (rnd() > 0.6) continue;
    let t = START + (day + 1) * DAY - 20_000;
    for (const [event, properties] of [
      ['page_view', { page: PAGES[day % PAGES.length] }],
      ['feature_impression', { feature: 'share' }],
      ['feature_used', { feature: 'export', source: SOURCES[day % SOURCES.length] }],
    ] as const) {
      t += 5_000 + Math.floor(rnd() * 10_000);
      events.push({
        project_id: projectId,
        message_id: `m-14-${events.length}`,
        user_id: 'u14',
        event,
        timestamp: t,
        received_at: t + 500,
        properties: JSON.stringify(properties),
      });
    }
  }
  return events;
}

/**
 * Users u0…u14 on plans (u0, u7, u14 without one; u3's "plan" a 3,000-character text, which is no
 * segment: as a key of the segment tables it would overflow their index and stall the processor).
 */
async function identify(projectId: string): Promise<void> {
  const plans = ['free', 'pro', 'team'];
  await services().db.query(
    `insert into users (project_id, user_id, properties)
     select $1, 'u' || i, case when i % 7 = 0 then '{"all": "yes"}'::jsonb
                               when i = 3 then jsonb_build_object('all', 'yes', 'plan', repeat(md5('x'), 94))
                               else jsonb_build_object('all', 'yes', 'plan', ($2::text[])[1 + i % 3]) end
     from generate_series(0, 14) i`,
    [projectId, plans],
  );
}

/** The rule of store/answer-tables.ts for what is a segment value, in the recomputations below. */
const SEGMENT = `jsonb_typeof(u.properties->'plan') in ('string', 'number', 'boolean') and length(u.properties->>'plan') <= 200`;

/** Feeds the events in batches of a random order: late events land between, before and after stored days. */
async function feed(events: TrackedEventRecord[], seed: number): Promise<void> {
  const rnd = seededRandom(seed);
  const shuffled = events.map((e) => ({ e, k: rnd() })).sort((a, b) => a.k - b.k);
  for (let i = 0; i < shuffled.length; i += 97) {
    const batch = shuffled.slice(i, i + 97).map(({ e }, j) => ({ partition: 0, offset: i + j, key: null, value: e }));
    await inTransaction(services().db, (client) => applyEvents(client, batch));
  }
}

/**
 * Users read by two of the answer tables' shares (store/answer-tables.ts): user_reach, which a
 * session that only grew never moves, and segment_feature_daily, which it moves with any new fact.
 */
const shareReads = { userReach: 0, segmentFeatures: 0 };

/** The client, counting in shareReads the users each of those statements reads. */
function countingShares(client: PoolClient): PoolClient {
  return new Proxy(client, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (name !== 'query') return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      return (sql: unknown, params?: unknown[]) => {
        // A user may come twice (two changes of theirs in a batch): the statement reads them once.
        const users = () => new Set(params![1] as string[]).size;
        if (typeof sql === 'string' && sql.includes('from user_daily q')) shareReads.userReach += users();
        if (typeof sql === 'string' && sql.includes('sum(d.data_volume_n)')) shareReads.segmentFeatures += users();
        return target.query(sql as string, params);
      };
    },
  });
}

/**
 * Feeds the events as the sessionize processor would pass them on: mostly in time order, every
 * tenth one late (among the next day's), through a sessionizer that forgets users idle for six
 * hours, so the sink both advances the chains it holds and re-splits users it does not hold (or
 * whose new events reach before their held chain), its state sometimes dropped by the fence.
 */
async function feedChains(events: TrackedEventRecord[], seed: number): Promise<void> {
  const rnd = seededRandom(seed);
  const ordered = events
    .map((e) => ({ e, at: e.received_at + (rnd() < 0.1 ? Math.floor(DAY * (1 + rnd())) : 0) }))
    .sort((a, b) => a.at - b.at)
    .map(({ e, at }, offset) => ({
      projectId: e.project_id,
      event: { ...e, received_at: at, offset },
    }));
  const sessionizer = new PartitionSessions(6 * 3_600_000);
  const writes = partitionWrites();
  // Batches of 1 to 40 events: small ones grow a session a few events at a time, as live traffic does.
  for (let i = 0, size = 1; i < ordered.length; i += size, size = 1 + Math.floor(rnd() * 40)) {
    const slice = ordered.slice(i, i + size);
    const step = sessionizer.add(slice, () => DEFAULT_ANALYTICS.session);
    step.commit();
    const batch = step.chains.map((c, j) => ({ partition: 0, offset: i + j, key: null, value: chainRecord(c) }));
    const { committed } = await inTransaction(services().db, (client) =>
      analyticsSink.write(countingShares(client), batch, writes(batch.length)),
    );
    // Sometimes the sink does not learn what it stored, as when another member applied the batch:
    // the next write finds another offset stored than its state was committed up to.
    if (rnd() >= 0.15) committed?.();
  }
}

/** The answer tables, and the shared sums of feature facts the features GET reads beside them. */
const SUMMED = ['feature_daily', 'project_daily', ...ANSWER_TABLES];

/** Every (user, feature) day as an edge from the previous one (edges), and the user's days to discovery (v). */
const REACH_EDGES = `v as (
    select fu.feature, fu.user_id, feature_discovery_ms(fu.first_used_at, m.first_seen_at) as ms
    from feature_users fu left join user_metrics m using (project_id, user_id) where fu.project_id = $1
  ),
  edges as (
    select 'seen' as kind, feature, user_id, day,
           coalesce(lag(day) over (partition by feature, user_id order by day), '-infinity') as prev_day
    from feature_user_daily where project_id = $1
    union all
    select 'used', feature, user_id, day,
           coalesce(lag(day) over (partition by feature, user_id order by day), '-infinity')
    from feature_user_daily where project_id = $1 and uses > 0
  )`;

/** The answer tables as a recomputation from the per-user rows gives them. */
const RECOMPUTED: Record<string, string> = {
  feature_daily: `select feature, day, sum(sessions_visible)::int as sessions_visible, sum(impressions)::int as impressions,
                         sum(uses)::int as uses, sum(empty_state_impressions)::int as empty_state_impressions,
                         sum(data_volume_sum)::float8 as data_volume_sum, sum(data_volume_n)::int as data_volume_n
                  from feature_user_daily where project_id = $1 group by 1, 2`,
  project_daily: 'select day, sum(sessions)::int as sessions from user_daily where project_id = $1 group by 1',
  feature_reach: `with ${REACH_EDGES}
                  select e.feature, e.kind, e.day, e.prev_day, count(*)::int as users,
                         (count(v.ms) filter (where e.kind = 'used'))::int as discovered,
                         coalesce(sum(v.ms) filter (where e.kind = 'used'), 0)::bigint as discovery_ms
                  from edges e left join v using (feature, user_id) group by 1, 2, 3, 4`,
  tenure_sessions: `with t as (
                      select '' as feature, d.day, d.sessions as n, m.first_seen_at
                      from user_daily d join user_metrics m using (project_id, user_id) where d.project_id = $1
                      union all
                      select f.feature, f.day, f.sessions_visible, m.first_seen_at
                      from feature_user_daily f join user_metrics m using (project_id, user_id) where f.project_id = $1
                    )
                    select feature, day,
                           coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'first_week'), 0)::int as first_week,
                           coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'month_2_plus'), 0)::int as month_2_plus
                    from t group by 1, 2 having sum(n) filter (where tenure_bucket(day, first_seen_at) is not null) > 0`,
  feature_discovery: `select feature, coalesce(first_use_source, '') as method,
                             (first_used_at at time zone 'utc')::date as day, count(*)::int as users
                      from feature_users where project_id = $1 and first_used_at is not null group by 1, 2, 3`,
  segment_daily: `select 'plan' as segment_key, u.properties->>'plan' as segment_value, d.day, sum(d.sessions)::int as sessions
                  from user_daily d join users u using (project_id, user_id)
                  where d.project_id = $1 and ${SEGMENT} group by 1, 2, 3`,
  segment_feature_daily: `select 'plan' as segment_key, u.properties->>'plan' as segment_value, f.feature, f.day,
                                 sum(f.sessions_visible)::int as sessions_visible, sum(f.impressions)::int as impressions,
                                 sum(f.uses)::int as uses, sum(f.empty_state_impressions)::int as empty_state_impressions,
                                 sum(f.data_volume_sum)::float8 as data_volume_sum, sum(f.data_volume_n)::int as data_volume_n
                          from feature_user_daily f join users u using (project_id, user_id)
                          where f.project_id = $1 and ${SEGMENT} group by 1, 2, 3, 4`,
  segment_feature_reach: `with ${REACH_EDGES}
                          select 'plan' as segment_key, u.properties->>'plan' as segment_value, e.feature, e.kind, e.day,
                                 e.prev_day, count(*)::int as users,
                                 (count(v.ms) filter (where e.kind = 'used'))::int as discovered,
                                 coalesce(sum(v.ms) filter (where e.kind = 'used'), 0)::bigint as discovery_ms
                          from edges e join users u on u.project_id = $1 and u.user_id = e.user_id and ${SEGMENT}
                          left join v on v.feature = e.feature and v.user_id = e.user_id group by 1, 2, 3, 4, 5, 6`,
  friction_page_reach: `select page, day, prev_day, count(*)::int as users
                        from (select page, day,
                                     coalesce(lag(day) over (partition by page, user_id order by day), '-infinity') as prev_day
                              from friction_page_users where project_id = $1) e
                        group by 1, 2, 3`,
  friction_element_reach: `select page, element, day, prev_day, count(*)::int as users
                           from (select page, element, day,
                                        coalesce(lag(day) over (partition by page, element, user_id order by day),
                                                 '-infinity') as prev_day
                                 from friction_element_users where project_id = $1) e
                           group by 1, 2, 3, 4`,
  user_reach: `select day, prev_day, count(*)::int as users
               from (select day, coalesce(lag(day) over (partition by user_id order by day), '-infinity') as prev_day
                     from user_daily where project_id = $1 and sessions > 0) e
               group by 1, 2`,
};

async function rows(sql: string, projectId: string): Promise<string[]> {
  const { rows: found } = await services().db.query<Record<string, unknown>>(sql, [projectId]);
  return found.map((r) => JSON.stringify(r)).sort();
}

async function stored(table: string, projectId: string): Promise<string[]> {
  const { rows: columns } = await services().db.query<{ column_name: string }>(
    `select column_name from information_schema.columns
     where table_name = $1 and column_name <> 'project_id' order by ordinal_position`,
    [table],
  );
  return rows(`select ${columns.map((c) => c.column_name).join(', ')} from ${table} where project_id = $1`, projectId);
}

/** Each user's first sighting and first use of each feature, over all the user's sessions. */
const FEATURE_USERS = `select s.user_id, f->>'feature' as feature,
         to_timestamp(min((f->>'first_seen_at')::bigint) / 1000.0) as first_seen_at,
         to_timestamp(min((f->>'first_used_at')::bigint) / 1000.0) as first_used_at,
         (array_agg(f->>'first_use_source' order by (f->>'first_used_at')::bigint nulls last, s.session_id))[1]
           as first_use_source
  from sessions s cross join lateral json_array_elements(coalesce(s.features, s.contribution->'features')) f
  where s.project_id = $1 group by 1, 2`;

const USER_METRICS = `select user_id, events, days_active, sessions, features_used, duration_ms, avg_session_seconds,
         friction_index, first_seen_at, last_seen_at
  from user_metrics where project_id = $1`;

/** user_metrics as summed again from the users' per-user rows (then rolled back). */
async function recomputedUserMetrics(projectId: string): Promise<string[]> {
  const client = await services().db.connect();
  try {
    await client.query('begin');
    const { rows: users } = await client.query<{ user_id: string }>(
      'select user_id from user_metrics where project_id = $1 union select user_id from user_daily where project_id = $1',
      [projectId],
    );
    await refreshUserMetrics(
      client,
      users.map((u) => ({ projectId, userId: u.user_id })),
      await projectAnalyticsConfigs(client, [projectId]),
    );
    const { rows: found } = await client.query<Record<string, unknown>>(USER_METRICS, [projectId]);
    return found.map((r) => JSON.stringify(r)).sort();
  } finally {
    await client.query('rollback');
    client.release();
  }
}

/**
 * Every answer table equals its recomputation, and so do feature_users, which they are read from,
 * and user_metrics, which the sink moves by deltas.
 */
async function assertConsistent(projectId: string): Promise<void> {
  assert.deepEqual(await rows(USER_METRICS, projectId), await recomputedUserMetrics(projectId), 'user_metrics');
  const featureUsers = await rows(FEATURE_USERS, projectId);
  assert.ok(featureUsers.length > 0);
  assert.deepEqual(
    await rows(
      'select user_id, feature, first_seen_at, first_used_at, first_use_source from feature_users where project_id = $1',
      projectId,
    ),
    featureUsers,
    'feature_users',
  );
  for (const table of SUMMED) {
    const expected = await rows(RECOMPUTED[table]!, projectId);
    assert.ok(expected.length > 0, `${table}: nothing to compare`);
    const columns = Object.keys(JSON.parse(expected[0]!) as object);
    const actual = (await stored(table, projectId)).map((r) => {
      const row = JSON.parse(r) as Record<string, unknown>;
      return JSON.stringify(Object.fromEntries(columns.map((c) => [c, row[c]])));
    });
    assert.deepEqual(actual.sort(), expected, table);
  }
}

describe('answer-sized feature and friction tables (migrations 15, 17 and 23, store/answer-tables.ts)', () => {
  after(() => closeServices());

  it('equal a recomputation from the per-user rows, in any arrival order and after erasures', async () => {
    const { projectId, keys } = await newProject(['admin']);
    await identify(projectId);
    const events = scenario(projectId, 7);
    await feed(events, 11);
    await assertConsistent(projectId);

    // Property changes through the API move users between segments (and out of them).
    const api = await startTestApi();
    try {
      for (const [user, properties] of [
        ['u1', { plan: 'team' }],
        ['u2', { plan: null }],
        ['u7', { plan: 'free' }],
      ] as const) {
        const reply = await call(api, 'PATCH', `/users/${user}`, { key: keys[0], json: { properties } });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      }
      const created = await call(api, 'POST', '/users/identify', {
        key: keys[0],
        json: { user_id: 'u-new', properties: { plan: 'pro' } },
      });
      assert.equal(created.status, 201);
      await assertConsistent(projectId);

      // Declaring another segment property rebuilds the segment tables from the per-user rows:
      // "all" answers from them as it does from the members' rows, and "plan" is unchanged.
      const range = { start: '2026-09-01', end: '2026-10-31' };
      const all = { key: 'all', values: ['yes'] };
      const slow = await segmentTotals(services().db, projectId, range, all, null, []);
      const settings = await call(api, 'PUT', '/settings/analytics', {
        key: keys[0],
        json: { segments: { properties: ['plan', 'all'] } },
      });
      assert.equal(settings.status, 200, JSON.stringify(settings.body));
      assert.ok(
        (await count("select 1 from segment_daily where project_id = $1 and segment_key = 'all'", [projectId])) > 0,
      );
      const fast = await segmentTotals(services().db, projectId, range, all, null, ['plan', 'all']);
      assert.deepEqual(
        fast.rows.map(({ avg_days, ...r }) => ({ ...r, avg_days: avg_days?.toFixed(9) })),
        slow.rows.map(({ avg_days, ...r }) => ({ ...r, avg_days: avg_days?.toFixed(9) })),
      );
      assert.ok(fast.rows.length > 0);
      // And taking it away again removes its rows.
      await call(api, 'PUT', '/settings/analytics', { key: keys[0], json: {} });
      assert.equal(
        await count("select 1 from segment_daily where project_id = $1 and segment_key = 'all'", [projectId]),
        0,
      );
    } finally {
      await api.close();
    }
    await assertConsistent(projectId);

    // Every table the sink writes but those with times of writing (first_* of users, moments).
    const compared = [
      ...SUMMED,
      'sessions',
      'friction_signals',
      'user_daily',
      'friction_page_daily',
      'friction_element_users',
      'feature_user_daily',
      'event_context_daily',
      'feature_users',
    ];
    const before = await Promise.all(compared.map((t) => stored(t, projectId)));
    await inTransaction(services().db, async (client) => {
      for (const table of analyticsSink.tables)
        await client.query(`delete from ${table} where project_id = $1`, [projectId]);
    });
    for (const table of compared) assert.deepEqual(await stored(table, projectId), [], `${table} after deletes`);
    // The same events as sessionized chains (late ones among them) give the same tables.
    await feedChains(events, 12);
    for (const [i, table] of compared.entries()) assert.deepEqual(await stored(table, projectId), before[i], table);
    // Sessions that only grew skip the shares they cannot move (sharesUnmoved): reading every share of
    // every changed user, both counts would be equal.
    assert.ok(shareReads.userReach < 0.9 * shareReads.segmentFeatures, JSON.stringify(shareReads));

    for (const userId of ['u3', 'u8'])
      await inTransaction(services().db, (client) => eraseUser(client, projectId, userId));
    await assertConsistent(projectId);
  });

  it('count distinct users of any date range exactly, as the per-user rows do', async () => {
    const { projectId } = await newProject();
    await identify(projectId);
    const events = scenario(projectId, 21);
    await feed(events, 5);
    const rnd = seededRandom(3);
    let checkedPages = 0;
    let checkedElements = 0;
    let checkedSegments = 0;
    const day = (n: number) => new Date(START + n * DAY).toISOString().slice(0, 10);
    for (let i = 0; i < 25; i++) {
      const a = Math.floor(rnd() * 62) - 2;
      const range = { start: day(a), end: day(a + Math.floor(rnd() * 40)) };
      const fast = await featureTotals(services().db, projectId, range, null);
      const slow = await segmentFeatureTotals(services().db, projectId, range, 'all', ['yes'], null);
      assert.equal(fast.length, slow.length, JSON.stringify(range));
      for (const [j, f] of fast.entries()) {
        const { segment, avg_days: slowDays, ...s } = slow[j]!;
        assert.equal(segment, 'yes');
        const { avg_days: fastDays, ...rest } = f;
        assert.deepEqual(rest, s, JSON.stringify(range));
        assert.ok(Math.abs((fastDays ?? 0) - (slowDays ?? 0)) < 1e-9, `${f.feature} ${JSON.stringify(range)}`);
      }
      // Segments: the answer tables (plan is a segment property) against the members' per-user rows.
      const segments = { key: 'plan', values: ['free', 'pro', 'team'] };
      const fromTables = await segmentTotals(services().db, projectId, range, segments, null, ['plan']);
      const fromUsers = await segmentTotals(services().db, projectId, range, segments, null, []);
      assert.equal(fromTables.rows.length, fromUsers.rows.length, `segments ${JSON.stringify(range)}`);
      for (const [j, t] of fromTables.rows.entries()) {
        const { avg_days: tDays, ...tRest } = t;
        const { avg_days: uDays, ...uRest } = fromUsers.rows[j]!;
        assert.deepEqual(tRest, uRest, `segments ${JSON.stringify(range)}`);
        assert.ok(Math.abs((tDays ?? 0) - (uDays ?? 0)) < 1e-9, `${t.segment} ${t.feature} ${JSON.stringify(range)}`);
      }
      checkedSegments += fromTables.rows.length;
      // users_affected of the friction points: the reach edges against a distinct count of per-user rows.
      const pages = await pageTotals(services().db, projectId, range.start, range.end, null);
      const { rows: distinct } = await services().db.query<{ page: string; users: number }>(
        `select page, count(distinct user_id)::int as users from friction_page_users
         where project_id = $1 and day between $2 and $3 group by 1`,
        [projectId, range.start, range.end],
      );
      assert.deepEqual(
        Object.fromEntries(pages.map((p) => [p.page, p.users_affected]).filter(([, n]) => n !== 0)),
        Object.fromEntries(distinct.map((d) => [d.page, d.users])),
        `users_affected ${JSON.stringify(range)}`,
      );
      checkedPages += distinct.length;
      // ... and of the element points, from friction_element_reach.
      const elements = await elementTotals(services().db, projectId, range.start, range.end, null);
      const { rows: distinctOnElements } = await services().db.query<{ point: string; users: number }>(
        `select page || ' ' || element as point, count(distinct user_id)::int as users from friction_element_users
         where project_id = $1 and day between $2 and $3 group by 1`,
        [projectId, range.start, range.end],
      );
      assert.deepEqual(
        Object.fromEntries(
          elements.map((e) => [`${e.page} ${e.element}`, e.users_affected]).filter(([, n]) => n !== 0),
        ),
        Object.fromEntries(distinctOnElements.map((d) => [d.point, d.users])),
        `element users_affected ${JSON.stringify(range)}`,
      );
      checkedElements += distinctOnElements.length;
    }
    assert.ok(checkedPages > 10, `ranges with friction: ${checkedPages}`);
    assert.ok(checkedElements > 5, `ranges with friction on elements: ${checkedElements}`);
    assert.ok(checkedSegments > 30, `segment rows compared: ${checkedSegments}`);
  });
});
