import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { RunningApi } from '../../api/server.js';
import { COHORT_FEATURES, type Vector } from '../../domain/cohorts/behavioural.js';
import { refreshBehaviouralCohorts, startBehaviouralCohortWorker } from '../../workers/behavioural-cohorts/worker.js';
import { recomputeWaitMs } from '../../workers/behavioural-cohorts/schedule.js';
import { refreshCohortMembership } from '../../workers/cohort-membership/worker.js';
import {
  call,
  count,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
} from './helpers.js';
import { type StreamClient, subscribedClient } from './stream-client.js';

type Group = 'power' | 'struggler' | 'casual' | 'explorer';
type Event = { user_id: string; event: string; timestamp: string; message_id: string; properties: object };

const DAY = 86_400_000;
/** 08:00 UTC fourteen days ago: every planted session lies in the past. */
const START = Math.floor(Date.now() / DAY) * DAY - 14 * DAY + 8 * 3600_000;

/**
 * Planted behaviours, sent as real events (docs/events.md), with some spread inside each group:
 * - power: 5–7 features seen and used per session, on 7–9 of 14 days, 30 s between steps;
 * - struggler: 3 sessions in the last 9 days, each with a rage burst, a dead click, a
 *   backtrack and an A→B→A→B confusion loop, a feature seen and used once;
 * - casual: one 8-second visit of two pages 12–13 days ago;
 * - explorer: 4 sessions in the last 10 days, 8–10 features seen, one used, 20 s between steps.
 */
function plant(group: Group, user: string, i: number): Event[] {
  const events: Event[] = [];
  const add = (at: number, event: string, properties: object) =>
    events.push({
      user_id: user,
      event,
      timestamp: new Date(at).toISOString(),
      message_id: `${user}-${events.length}`,
      properties,
    });
  const session = (day: number, steps: [number, string, object][]) => {
    let at = START + day * DAY + (i % 5) * 600_000;
    for (const [gap, event, properties] of steps) add((at += gap), event, properties);
  };
  const features = (n: number, used: number, gap: number): [number, string, object][] =>
    Array.from({ length: n }, (_, f): [number, string, object][] => [
      [gap, 'page_view', { page: `/f${f}` }],
      [gap, 'feature_impression', { page: `/f${f}`, feature: `feature_${f}` }],
      ...(f < used
        ? [[gap, 'feature_used', { page: `/f${f}`, feature: `feature_${f}` }] as [number, string, object]]
        : []),
    ]).flat();
  if (group === 'power') {
    const n = 5 + (i % 3);
    const days = [0, 1, 3, 4, 6, 8, 10, 12, 13].filter((_, d) => d !== i % 9).slice(0, 7 + (i % 3));
    for (const day of days) session(day, [[0, 'page_view', { page: '/home' }], ...features(n, n, 30_000)]);
  } else if (group === 'struggler') {
    for (const day of [5, 8 + (i % 2), 12]) {
      session(day, [
        [0, 'page_view', { page: '/search' }],
        [1000, 'click', { page: '/search', element: '#apply', element_type: 'button', x: 10, y: 10 }],
        [300, 'click', { page: '/search', element: '#apply', element_type: 'button', x: 11, y: 10 }],
        [300, 'click', { page: '/search', element: '#apply', element_type: 'button', x: 12, y: 11 }],
        [2000, 'page_view', { page: '/results' }],
        [3000, 'page_view', { page: '/search' }],
        [3000, 'page_view', { page: '/results' }],
        [3000, 'page_view', { page: '/search' }],
        [2000, 'feature_impression', { page: '/search', feature: 'filters' }],
        [2000, 'feature_used', { page: '/search', feature: 'filters' }],
        [2000, 'click', { page: '/search', element: '#broken', ui_response: false, ui_response_ms: 3000 }],
        [4000, 'page_view', { page: '/results' }],
      ]);
    }
  } else if (group === 'casual') {
    session(1 + (i % 2), [
      [0, 'page_view', { page: '/home' }],
      [8000, 'page_view', { page: '/pricing' }],
    ]);
  } else {
    for (const day of [3, 6, 9, 12]) {
      session(day, [[0, 'page_view', { page: '/home' }], ...features(8 + (i % 3), 1, 20_000)]);
    }
  }
  return events;
}

const GROUPS: Group[] = ['power', 'struggler', 'casual', 'explorer'];

interface CohortRecord {
  id: string;
  name: string;
  type: string;
  size: number;
  percentage: number;
  characteristics: Vector;
  churn_risk: string;
  expansion_opportunity: string;
  created_at: string;
}

/** What a cohort.changed message carries, but its time. */
interface ChangeData {
  cohort_id: string;
  name: string;
  type: string;
  added: string[];
  removed: string[];
  added_count: number;
  removed_count: number;
  size: number;
}
const withoutTime = (data: unknown) => {
  const { changed_at, ...rest } = data as ChangeData & { changed_at: string };
  assert.match(changed_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  return rest;
};

describe('behavioural cohorts: planted groups recovered by clustering, through the API', () => {
  let pipeline: TestPipeline;
  let api: RunningApi;
  let projectId: string;
  let write: string;
  let read: string;
  let writeOnly: string;
  let other: string;
  let stream: StreamClient;
  const run = crypto.randomUUID().slice(0, 8);
  const groupOf = new Map<string, Group>();

  async function send(perGroup: number, from: number, key = write): Promise<void> {
    const events: Event[] = [];
    for (const group of GROUPS) {
      for (let i = from; i < from + perGroup; i++) {
        const user = `${group}-${String(i).padStart(3, '0')}-${run}`;
        groupOf.set(user, group);
        events.push(...plant(group, user, i));
      }
    }
    for (let at = 0; at < events.length; at += 1000) {
      const reply = await call(api, 'POST', '/events/batch', {
        key,
        json: { events: events.slice(at, at + 1000) },
      });
      assert.equal(reply.status, 202, JSON.stringify(reply.body));
    }
    await waitForAnalytics(120_000);
  }

  async function cohorts(key = read): Promise<CohortRecord[]> {
    const reply = await call<{ cohorts: CohortRecord[] }>(api, 'GET', '/analytics/cohorts', { key });
    assert.equal(reply.status, 200);
    return reply.body.cohorts;
  }

  async function members(id: string): Promise<string[]> {
    const users: string[] = [];
    for (let page = 1; ; page++) {
      const reply = await call<{ users: { user_id: string }[]; total: number }>(
        api,
        'GET',
        `/analytics/cohorts/${id}/users?per_page=100&page=${page}`,
        { key: read },
      );
      assert.equal(reply.status, 200);
      users.push(...reply.body.users.map((u) => u.user_id));
      if (users.length >= reply.body.total) return users;
    }
  }

  /** The members each cohort's published changes add up to (folded in order), by cohort id. */
  async function changesFolded(): Promise<Map<string, string[]>> {
    const { rows } = await services().db.query<{ cohort_id: string; added: string[]; removed: string[] }>(
      'select cohort_id, added, removed from cohort_changes where project_id = $1 order by changed_at, cohort_id',
      [projectId],
    );
    const folded = new Map<string, Set<string>>();
    for (const r of rows) {
      const set = folded.get(r.cohort_id) ?? new Set<string>();
      r.added.forEach((u) => set.add(u));
      r.removed.forEach((u) => set.delete(u));
      folded.set(r.cohort_id, set);
    }
    return new Map([...folded].filter(([, set]) => set.size > 0).map(([id, set]) => [id, [...set].sort()]));
  }

  /** Every cohort's published changes add up to its members, and no cohort gone keeps any. */
  async function assertChangesAddUp(): Promise<void> {
    const expected = new Map<string, string[]>();
    for (const cohort of await cohorts()) expected.set(cohort.id, (await members(cohort.id)).sort());
    assert.deepEqual(await changesFolded(), expected);
  }

  /** Every row of the new tables for the project, computation and check times left out. */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of ['behavioural_cohort_runs', 'behavioural_cohorts', 'behavioural_cohort_members']) {
      const { rows } = await services().db.query<{ row: unknown }>(
        `select to_jsonb(t) - 'project_id' - 'computed_at' - 'checked_at' as row from ${table} t where project_id = $1 order by 1`,
        [projectId],
      );
      out[table] = rows.map((r) => r.row);
    }
    return out;
  }

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    api = pipeline.api;
    const project = await newProject(['events:write', 'admin'], ['analytics:read'], ['events:write']);
    [write, read, writeOnly] = project.keys as [string, string, string];
    projectId = project.projectId;
    other = (await newProject(['analytics:read'])).keys[0]!;
    await send(24, 0);
    // Membership changes reach a subscription (the outbox) and the stream alike.
    const hook = await call(api, 'POST', '/webhooks', {
      key: write,
      json: { url: 'https://hooks.example.com/cohorts', events: ['cohort.changed'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    stream = await subscribedClient(api.streamUrl, read, ['cohort_changes']);
  });
  after(async () => {
    stream?.ws.close();
    await stopPipeline(pipeline);
  });

  it('the worker clusters the project; each planted group is one cohort with ≥ 95 % purity', async () => {
    const worker = await startBehaviouralCohortWorker(services());
    try {
      await waitFor('the first computation', () =>
        count('select 1 from behavioural_cohort_runs where project_id = $1', [projectId]).then((n) => n === 1),
      );
    } finally {
      await worker.stop();
    }
    const found = await cohorts();
    assert.equal(found.length, 4, JSON.stringify(found));
    const dominant = new Map<Group, string>();
    for (const cohort of found) {
      assert.deepEqual(Object.keys(cohort).sort(), [
        'characteristics',
        'churn_risk',
        'created_at',
        'expansion_opportunity',
        'id',
        'name',
        'percentage',
        'size',
        'type',
      ]);
      assert.deepEqual(Object.keys(cohort.characteristics).sort(), [
        'avg_features_used',
        'avg_session_length',
        'daily_active_rate',
        'efficiency_score',
        'friction_index',
        'loop_patterns_rate',
      ]);
      assert.equal(cohort.type, 'behavioral');
      const users = await members(cohort.id);
      assert.equal(users.length, cohort.size);
      assert.ok(Math.abs(cohort.percentage - cohort.size / 96) < 1e-9);
      const byGroup = new Map<Group, number>();
      for (const u of users) byGroup.set(groupOf.get(u)!, (byGroup.get(groupOf.get(u)!) ?? 0) + 1);
      const [group, n] = [...byGroup].sort((a, b) => b[1] - a[1])[0]!;
      assert.ok(n / users.length >= 0.95, `${cohort.name}: purity ${n / users.length}`);
      assert.ok(!dominant.has(group), `${group} dominates two cohorts`);
      dominant.set(group, cohort.id);
    }
    const of = (g: Group) => found.find((c) => c.id === dominant.get(g))!;
    // What the rules say of the planted behaviours (docs/metrics.md).
    assert.equal(of('power').name, 'Power users');
    assert.deepEqual([of('power').churn_risk, of('power').expansion_opportunity], ['very_low', 'high']);
    assert.equal(of('casual').expansion_opportunity, 'low');
    assert.ok(of('struggler').characteristics.friction_index > of('power').characteristics.friction_index);
    assert.ok(of('struggler').characteristics.loop_patterns_rate >= 0.5); // 3 of 6 views close a loop
    assert.ok(of('explorer').characteristics.efficiency_score < of('power').characteristics.efficiency_score);

    // The first computation announces every cohort's members as cohort.changed: on the stream and to the
    // project's subscription (its outbox rows), with the same data.
    const { rows: outbox } = await services().db.query<{ data: ChangeData }>(
      `select payload->'data' as data from webhook_deliveries where project_id = $1 and event = 'cohort.changed'`,
      [projectId],
    );
    assert.equal(outbox.length, found.length);
    for (const cohort of found) {
      const users = (await members(cohort.id)).sort();
      const expected = {
        cohort_id: cohort.id,
        name: cohort.name,
        type: 'behavioral',
        added: users,
        removed: [],
        added_count: cohort.size,
        removed_count: 0,
        size: cohort.size,
      };
      const message = await stream.next(
        (m) => m.channel === 'cohort_changes' && (m.data as ChangeData).cohort_id === cohort.id,
      );
      assert.deepEqual(withoutTime(message.data), expected);
      assert.deepEqual(withoutTime(outbox.find((r) => r.data.cohort_id === cohort.id)!.data), expected);
    }
  });

  it('a project first looked at empty gets its cohorts within a minute of its data, not ten', async () => {
    const young = await newProject(['events:write', 'analytics:read']);
    const [youngKey] = young.keys as [string];
    const pass = () => refreshBehaviouralCohorts(services(), young.projectId, { minAgeMs: recomputeWaitMs });
    /** Moves the project's last computation and check back in time: what the worker sees that much later. */
    const later = (ms: number) =>
      services().db.query(
        `update behavioural_cohort_runs set computed_at = computed_at - $2::float8 * interval '1 millisecond',
           checked_at = checked_at - $2::float8 * interval '1 millisecond' where project_id = $1`,
        [young.projectId, ms],
      );
    // The worker's first pass finds the project empty: a computation with no cohorts.
    assert.equal(await pass(), 1);
    assert.deepEqual(await cohorts(youngKey), []);
    await send(24, 0, youngKey);
    // Right away it still waits (a project is not recomputed on every pass) …
    assert.equal(await pass(), 0);
    // … but a minute later its cohorts are there.
    await later(60_000);
    assert.equal(await pass(), 1);
    assert.equal((await cohorts(youngKey)).length, 4);
    // Recomputation stays bounded: new data half a minute later waits again.
    await send(3, 24, youngKey);
    assert.equal(await pass(), 0);
    await later(30_000);
    assert.equal(await pass(), 1);
    assert.equal(
      (await cohorts(youngKey)).reduce((sum, c) => sum + c.size, 0),
      108,
    );
  });

  it('shares one id space with custom cohorts: listed, fetched, detailed and deleted alike', async () => {
    const found = await cohorts();
    const power = found.find((c) => c.name === 'Power users')!;
    // Power users are the ones who use five features or more (docs of plant()).
    const created = await call<{ id: string }>(api, 'POST', '/cohorts', {
      key: write,
      json: { name: 'Five features', criteria: { features_used: { gte: 5 } } },
    });
    assert.equal(created.status, 201);
    const custom = created.body.id;

    type Listed = { cohorts: { id: string; type: string }[]; total: number; page: number; per_page: number };
    const list = async (query: string) => {
      const reply = await call<Listed>(api, 'GET', `/cohorts${query}`, { key: write });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body;
    };
    const all = await list('?per_page=100');
    assert.equal(all.total, found.length + 1);
    assert.equal(all.cohorts[0]!.id, custom, 'newest first');
    assert.deepEqual(all.cohorts.map((c) => c.id).sort(), [custom, ...found.map((c) => c.id)].sort());
    // A behavioural cohort is listed as /analytics/cohorts shows it.
    assert.deepEqual(
      all.cohorts.find((c) => c.id === power.id),
      power,
    );
    assert.deepEqual(
      (await list('?type=custom')).cohorts.map((c) => c.id),
      [custom],
    );
    const behavioural = await list('?type=behavioral');
    assert.deepEqual(
      [behavioural.total, new Set(behavioural.cohorts.map((c) => c.type))],
      [found.length, new Set(['behavioral'])],
    );
    const paged = await list(`?per_page=2&page=3`);
    assert.deepEqual([paged.cohorts.length, paged.total, paged.page, paged.per_page], [1, found.length + 1, 3, 2]);
    const badType = await call(api, 'GET', '/cohorts?type=smart', { key: write });
    assert.deepEqual([badType.status, errorOf(badType).details], [400, { field: 'type', reason: 'invalid_value' }]);

    // One at a time, either type; the members under /cohorts and /analytics/cohorts are the same answer.
    assert.deepEqual((await call(api, 'GET', `/cohorts/${power.id}`, { key: write })).body, power);
    const one = await call<Record<string, unknown>>(api, 'GET', `/cohorts/${custom}`, { key: write });
    assert.deepEqual(
      [one.body.id, one.body.type, one.body.criteria, one.body.size],
      [custom, 'custom', { features_used: { gte: 5 } }, power.size],
    );
    for (const id of [power.id, custom]) {
      const path = `/cohorts/${id}/users?per_page=7&page=2`;
      const admin = await call(api, 'GET', path, { key: write });
      assert.equal(admin.status, 200);
      assert.deepEqual((await call(api, 'GET', `/analytics${path}`, { key: read })).body, admin.body);
    }
    assert.deepEqual((await members(custom)).sort(), (await members(power.id)).sort());

    // The same members: the custom cohort's profile is the behavioural cohort's, by the same rules.
    const detail = async (id: string) => {
      const reply = await call<Record<string, unknown>>(api, 'GET', `/analytics/cohorts/${id}`, { key: read });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body;
    };
    const [customDetail, powerDetail] = [await detail(custom), await detail(power.id)];
    for (const field of [
      'size',
      'percentage',
      'characteristics',
      'churn_risk',
      'expansion_opportunity',
      'top_features',
    ]) {
      assert.deepEqual(customDetail[field], powerDetail[field], field);
    }
    assert.deepEqual([customDetail.type, customDetail.criteria], ['custom', { features_used: { gte: 5 } }]);
    // Its size over time follows its membership changes (none before the membership worker's first pass).
    assert.deepEqual(customDetail.size_over_time, []);
    await refreshCohortMembership(services());
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual((await detail(custom)).size_over_time, [{ date: today, size: power.size }]);

    // A behavioural cohort is computed, so it cannot be deleted; a custom one can, and its members leave it.
    const refused = await call(api, 'DELETE', `/cohorts/${power.id}`, { key: write });
    assert.equal(refused.status, 409);
    assert.deepEqual(errorOf(refused).details, { reason: 'computed_cohort', type: 'behavioral' });
    assert.match(errorOf(refused).message, /behavioural cohort.*cannot be deleted/);
    assert.equal((await call(api, 'GET', `/cohorts/${power.id}`, { key: write })).status, 200);
    assert.equal((await call(api, 'DELETE', `/cohorts/${custom}`, { key: read })).status, 403);
    const deleted = await call(api, 'DELETE', `/cohorts/${custom}`, { key: write });
    assert.deepEqual([deleted.status, deleted.body], [200, { id: custom, deleted: true }]);
    const last = await stream.next(
      (m) =>
        m.channel === 'cohort_changes' &&
        (m.data as ChangeData).cohort_id === custom &&
        (m.data as ChangeData).removed.length > 0,
    );
    const powerUsers = (await members(power.id)).sort();
    assert.deepEqual(withoutTime(last.data), {
      cohort_id: custom,
      name: 'Five features',
      type: 'custom',
      added: [],
      removed: powerUsers,
      added_count: 0,
      removed_count: powerUsers.length,
      size: 0,
    });
    for (const [method, path] of [
      ['GET', `/cohorts/${custom}`],
      ['GET', `/cohorts/${custom}/users`],
      ['GET', `/analytics/cohorts/${custom}`],
      ['DELETE', `/cohorts/${custom}`],
    ] as const) {
      assert.equal((await call(api, method, path, { key: write })).status, 404, `${method} ${path}`);
    }
    await assertChangesAddUp();
  });

  it('details a cohort: definition, traits, top features and size over time', async () => {
    const power = (await cohorts()).find((c) => c.name === 'Power users')!;
    const reply = await call<Record<string, unknown>>(api, 'GET', `/analytics/cohorts/${power.id}`, { key: read });
    assert.equal(reply.status, 200);
    const definition = reply.body.definition as Record<string, unknown>;
    assert.equal(definition.k, 4);
    assert.equal(definition.users_clustered, 96);
    assert.equal(definition.users_excluded, 0);
    assert.ok((definition.silhouette as number) > 0.5);
    assert.deepEqual(definition.features, COHORT_FEATURES);
    // Standardised: power users use more features than the average user.
    assert.ok((reply.body.traits as Vector).avg_features_used > 1);
    // Every power user uses feature_0..feature_4.
    const top = reply.body.top_features as { feature: string; users: number; share: number }[];
    assert.deepEqual(
      top
        .slice(0, 5)
        .map((f) => [f.feature, f.users, f.share])
        .sort(),
      [0, 1, 2, 3, 4].map((f) => [`feature_${f}`, power.size, 1]),
    );
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(reply.body.size_over_time, [{ date: today, size: power.size }]);
  });

  it('answers 404 for an unknown cohort, 400 for bad paging, 403 without the scope, and only the key’s project', async () => {
    const [first] = await cohorts();
    const missing = await call(api, 'GET', '/analytics/cohorts/bc_nobody', { key: read });
    assert.equal(missing.status, 404);
    assert.equal(errorOf(missing).code, 'not_found');
    assert.equal((await call(api, 'GET', '/analytics/cohorts/bc_nobody/users', { key: read })).status, 404);
    const bad = await call(api, 'GET', `/analytics/cohorts/${first!.id}/users?per_page=0`, { key: read });
    assert.deepEqual(errorOf(bad).details, { field: 'per_page', reason: 'out_of_range' });
    assert.equal((await call(api, 'GET', '/analytics/cohorts', { key: writeOnly })).status, 403);
    assert.deepEqual(await cohorts(other), []);
    assert.equal((await call(api, 'GET', `/analytics/cohorts/${first!.id}`, { key: other })).status, 404);
    assert.equal((await call(api, 'GET', `/analytics/cohorts/${first!.id}/users`, { key: other })).status, 404);
    const page = await call<{ users: unknown[]; total: number; page: number; per_page: number }>(
      api,
      'GET',
      `/analytics/cohorts/${first!.id}/users?per_page=5&page=2`,
      { key: read },
    );
    assert.deepEqual(
      [page.body.users.length, page.body.total, page.body.page, page.body.per_page],
      [5, first!.size, 2, 5],
    );
  });

  it('keeps ids and names when recomputed on more users, and a recomputation from scratch gives the same rows', async () => {
    const before = await cohorts();
    // Unchanged tables: nothing to recompute.
    assert.equal(await refreshBehaviouralCohorts(services(), projectId), 0);
    await send(3, 24);
    assert.equal(await refreshBehaviouralCohorts(services(), projectId), 1);
    const after = await cohorts();
    assert.deepEqual(
      after.map((c) => [c.id, c.name, c.size]).sort(),
      before.map((c) => [c.id, c.name, c.size + 3]).sort(),
    );
    // The newcomers' arrival is announced: the changes still add up to the members.
    await assertChangesAddUp();

    // The same tables give the same rows, with no previous run to match: what a replay relies on.
    const grown = await snapshot();
    await services().db.query('delete from behavioural_cohort_runs where project_id = $1', [projectId]);
    await services().db.query('delete from behavioural_cohorts where project_id = $1', [projectId]);
    assert.equal(await refreshBehaviouralCohorts(services(), projectId), 1);
    assert.deepEqual(await snapshot(), grown);
  });

  it('fits a large project on an evenly spread sample and assigns every user; the groups are still recovered', async () => {
    const fromScratch = async () => {
      await services().db.query('delete from behavioural_cohort_runs where project_id = $1', [projectId]);
      await services().db.query('delete from behavioural_cohorts where project_id = $1', [projectId]);
      // 40 of the 108 users fit the model, as 20,000 of a large project's would.
      assert.equal(await refreshBehaviouralCohorts(services(), projectId, { modelSample: 40 }), 1);
    };
    await fromScratch();
    const found = await cohorts();
    assert.equal(found.length, 4);
    const everyone = new Set<string>();
    for (const cohort of found) {
      const users = await members(cohort.id);
      users.forEach((u) => everyone.add(u));
      const byGroup = new Map<Group, number>();
      for (const u of users) byGroup.set(groupOf.get(u)!, (byGroup.get(groupOf.get(u)!) ?? 0) + 1);
      assert.ok(
        Math.max(...byGroup.values()) / users.length >= 0.95,
        `${cohort.name}: ${JSON.stringify([...byGroup])}`,
      );
    }
    assert.equal(everyone.size, groupOf.size, 'every user is in exactly one cohort');
    const { rows } = await services().db.query<{ definition: { sample: string } }>(
      'select definition from behavioural_cohort_runs where project_id = $1',
      [projectId],
    );
    assert.match(rows[0]!.definition.sample, /^40 users fit the model/);
    const once = await snapshot();
    await fromScratch();
    assert.deepEqual(await snapshot(), once, 'the same tables give the same rows');
  });

  it('counts top features with the cohort: a feature first used since shows after the next computation', async () => {
    const topOf = async (id: string) => {
      const reply = await call<{ top_features: { feature: string; users: number }[] }>(
        api,
        'GET',
        `/analytics/cohorts/${id}`,
        { key: read },
      );
      assert.equal(reply.status, 200);
      return reply.body.top_features;
    };
    const newFeatureUsers = async () => {
      let users = 0;
      for (const cohort of await cohorts())
        users += (await topOf(cohort.id)).find((f) => f.feature === 'novel')?.users ?? 0;
      return users;
    };
    const power = (await cohorts()).find((c) => c.name === 'Power users')!;
    const [first, second] = await members(power.id);
    const now = Date.now();
    const events = [first!, second!].flatMap((user) =>
      ['feature_impression', 'feature_used'].map((event, i) => ({
        user_id: user,
        event,
        timestamp: new Date(now - 60_000 + i * 1000).toISOString(),
        message_id: `${user}-novel-${event}`,
        properties: { page: '/novel', feature: 'novel' },
      })),
    );
    assert.equal((await call(api, 'POST', '/events/batch', { key: write, json: { events } })).status, 202);
    await waitForAnalytics(120_000);
    // The cohort is what its last computation found: its members, traits and top features alike.
    assert.equal(await newFeatureUsers(), 0);
    assert.equal(await refreshBehaviouralCohorts(services(), projectId), 1);
    assert.equal(await newFeatureUsers(), 2);
  });
});
