import assert from 'node:assert/strict';
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { startWorkflowWorker } from '../../workers/workflows/worker.js';
import { type StepEvent, stepsOf } from '../../domain/workflows/steps.js';
import { startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { ISSUE_NAMES } from '../../domain/friction/index.js';
import {
  call,
  count,
  errorOf,
  newProject,
  postEvents,
  runReplay,
  services,
  startPipeline,
  stopPipeline,
  tableRows,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
} from './helpers.js';

interface WorkflowRecord {
  workflow_id: string;
  goal: string;
  path: string[];
  frequency: number;
  efficiency_score: number;
  avg_time: number;
  completion_rate: number;
  occurrences: number;
  users: number;
  user_share: number;
}
interface Efficiency {
  workflow_id: string;
  goal: string;
  optimal_steps: number;
  actual_avg_steps: number;
  efficiency_score: number;
  friction_points: { step: string; friction_index: number; common_issues: string[] }[];
}

/** The longest gap and session schemas/analytics-settings.json allows: 365 days. */
const YEAR_MS = 31_536_000_000;

/**
 * The paths to `goal` counted straight from the CSV under the rules of docs/metrics.md
 * (Workflows), without the service's code: sessions cut at a gap ≥ a year or beyond a year,
 * attempts cut at the goal, repeats merged, paths over 10 steps capped to 8 + "..." + last,
 * paths seen once folded into "other".
 */
function countPaths(rows: Record<string, string>[], goal: string) {
  const cases = new Map<string, { name: string; at: number; order: number }[]>();
  rows.forEach((row, order) => {
    const list = cases.get(row['Case ID']!) ?? [];
    list.push({ name: row.Activity!, at: Date.parse(isoOf(row)), order });
    cases.set(row['Case ID']!, list);
  });
  const tried: { user: string; first: string; done: boolean; path?: string; raw: number; ms: number }[] = [];
  for (const [user, list] of cases) {
    list.sort((a, b) => a.at - b.at || a.order - b.order);
    let start = 0;
    let last = -Infinity;
    let previous: string | undefined;
    let segment: typeof list = [];
    const close = (done: boolean, at: number) => {
      const merged = segment.map((s) => s.name).filter((name, i, all) => i === 0 || all[i - 1] !== name);
      const path = merged.length > 10 ? [...merged.slice(0, 8), '...', merged.at(-1)] : merged;
      tried.push({
        user,
        first: path[0] ?? '',
        done,
        path: JSON.stringify(path),
        raw: segment.length,
        ms: at - (segment[0]?.at ?? at),
      });
      segment = [];
    };
    for (const step of list) {
      if (step.at - last >= YEAR_MS || step.at - start > YEAR_MS) {
        if (segment.length > 0) close(false, last);
        start = step.at;
        previous = undefined;
      }
      last = step.at;
      // A goal right after a goal is the same completion.
      if (step.name === goal && previous !== goal) close(true, step.at);
      else if (step.name !== goal) segment.push(step);
      previous = step.name;
    }
    if (segment.length > 0) close(false, last);
  }
  const done = tried.filter((t) => t.done);
  const groups = new Map<string, typeof done>();
  for (const t of done) groups.set(t.path!, [...(groups.get(t.path!) ?? []), t]);
  const expected = new Map<
    string,
    { occurrences: number; frequency: number; completion_rate: number; avg_time: number; users: number }
  >();
  const add = (key: string, members: typeof done) => {
    const firsts = new Set(members.map((m) => m.first));
    const from = tried.filter((t) => firsts.has(t.first));
    expected.set(key, {
      occurrences: members.length,
      frequency: members.length / done.length,
      completion_rate: from.filter((t) => t.done).length / from.length,
      avg_time: members.reduce((sum, m) => sum + m.ms, 0) / members.length / 1000,
      users: new Set(members.map((m) => m.user)).size,
    });
  };
  const rare: typeof done = [];
  for (const [key, members] of groups) {
    if (members.length >= 2) add(key, members);
    else rare.push(...members);
  }
  if (rare.length > 0) add(JSON.stringify(['other']), rare);
  return { expected, cases: cases.size };
}

const isoOf = (row: Record<string, string>) => row['Complete Timestamp']!.replace(/\//g, '-').replace(' ', 'T') + 'Z';

/** Every row of the workflow tables of a project, canonical and without computation times. */
const snapshot = (projectId: string) =>
  tableRows(projectId, ['workflow_goals', 'workflows', 'workflow_steps'], ['computed_at']);

describe('workflows: paths to goals, materialized', function () {
  this.timeout(180_000);
  let pipeline: TestPipeline | undefined;
  const rows = parse<Record<string, string>>(fs.readFileSync('../shared/data/sepsis.csv'), {
    delimiter: ';',
    columns: true,
  });
  let sepsis: { projectId: string; write: string; read: string };

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    const { api } = pipeline;
    const { projectId, keys } = await newProject(['events:write', 'admin'], ['analytics:read']);
    sepsis = { projectId, write: keys[0]!, read: keys[1]! };
    // One session per case: the longest gap and session allowed, set before any event is processed.
    const settings = await call(api, 'PUT', '/settings/analytics', {
      key: sepsis.write,
      json: { session: { gapMs: YEAR_MS, maxMs: YEAR_MS } },
    });
    assert.equal(settings.status, 200);
    const events = rows.map((row, i) => ({
      user_id: row['Case ID'],
      event: row.Activity,
      timestamp: isoOf(row),
      message_id: `sepsis-${i}`,
    }));
    await postEvents(api, sepsis.write, events);
    await waitForAnalytics(90_000);
  });

  after(async () => {
    await stopPipeline(pipeline);
  });

  it('sepsis.csv: per-user steps over the stored events give the 846 variants, grouped as Disco labels them', async () => {
    const { rows: stored } = await services().db.query<StepEvent & { user_id: string }>(
      `select user_id, event, (extract(epoch from occurred_at) * 1000)::bigint as at, kafka_offset as "offset", properties
       from session_events where project_id = $1`,
      [sepsis.projectId],
    );
    assert.equal(stored.length, 15_214);
    const byUser = new Map<string, StepEvent[]>();
    for (const e of stored) byUser.set(e.user_id, [...(byUser.get(e.user_id) ?? []), e]);
    const labelOf = new Map(rows.map((r) => [r['Case ID']!, r.Variant!]));
    const sequenceLabel = new Map<string, string>();
    const labelSequence = new Map<string, string>();
    for (const [user, events] of byUser) {
      const sequence = JSON.stringify(stepsOf(events).map((s) => s.name));
      const label = labelOf.get(user)!;
      assert.equal(sequenceLabel.get(sequence) ?? label, label, `case ${user}: one sequence, one label`);
      assert.equal(labelSequence.get(label) ?? sequence, sequence, `case ${user}: one label, one sequence`);
      sequenceLabel.set(sequence, label);
      labelSequence.set(label, sequence);
    }
    assert.equal(byUser.size, 1050);
    assert.equal(sequenceLabel.size, 846);
  });

  it('sepsis.csv: GET /analytics/workflows?goal=Release A registers the goal, the worker mines it, and it agrees with a count from the CSV', async () => {
    // The request waits (PI_WORKFLOW_WAIT_MS) for the worker, woken by the request, to mine the goal;
    // on a busy machine it may answer 202 first, and a client asks again, as this one does.
    const worker = await startWorkflowWorker(services());
    const get = (page: number) =>
      call<{ workflows: WorkflowRecord[]; total: number }>(
        pipeline!.api,
        'GET',
        `/analytics/workflows?goal=${encodeURIComponent('Release A')}&per_page=100&page=${page}`,
        { key: sepsis.read },
      );
    const reply = await waitFor(
      'the mined goal',
      async () => {
        const r = await get(1);
        assert.ok(r.status === 200 || r.status === 202, `status ${r.status}`);
        return r.status === 200 && r;
      },
      120_000,
    ).finally(() => worker.stop());
    const { expected, cases } = countPaths(rows, 'Release A');
    // Every page of the list, in order.
    const got = [...reply.body.workflows];
    for (let page = 2; got.length < reply.body.total; page++) got.push(...(await get(page)).body.workflows);
    assert.deepEqual(got.map((w) => JSON.stringify(w.path)).sort(), [...expected.keys()].sort());
    for (const w of got) {
      const e = expected.get(JSON.stringify(w.path))!;
      assert.equal(w.goal, 'Release A');
      assert.equal(w.occurrences, e.occurrences, `${w.path.join(' → ')}: occurrences`);
      assert.equal(w.users, e.users);
      for (const field of ['frequency', 'completion_rate', 'avg_time'] as const) {
        assert.ok(Math.abs(w[field] - e[field]) < 1e-9, `${w.path.join(' → ')}: ${field} ${w[field]} ≠ ${e[field]}`);
      }
      assert.ok(Math.abs(w.user_share - e.users / cases) < 1e-9);
    }
    // Most frequent first, "other" last; the total is every completion.
    assert.deepEqual(got.at(-1)!.path, ['other']);
    got.slice(1, -1).forEach((w, i) => assert.ok(w.occurrences <= got[i]!.occurrences));
    // (each frequency rounded to 9 decimals: the sum is 1 within half a unit of the 9th decimal per workflow)
    assert.ok(Math.abs(got.reduce((sum, w) => sum + w.frequency, 0) - 1) <= got.length * 5e-10 + 1e-12);

    const frequent = await call<{ workflows: WorkflowRecord[] }>(
      pipeline!.api,
      'GET',
      `/analytics/workflows?goal=${encodeURIComponent('Release A')}&min_frequency=10`,
      { key: sepsis.read },
    );
    assert.deepEqual(
      frequent.body.workflows,
      got.filter((w) => w.occurrences >= 10),
    );
    assert.ok(frequent.body.workflows.length > 0 && frequent.body.workflows.length < got.length);

    const top = got[0]!;
    const efficiency = await call<Efficiency>(
      pipeline!.api,
      'GET',
      `/analytics/workflows/${top.workflow_id}/efficiency`,
      {
        key: sepsis.read,
      },
    );
    assert.equal(efficiency.status, 200);
    assert.equal(efficiency.body.efficiency_score, top.efficiency_score);
    assert.ok(efficiency.body.optimal_steps >= 1 && efficiency.body.actual_avg_steps >= efficiency.body.optimal_steps);
    assert.ok(
      // both numbers carry 9 decimals
      Math.abs(top.efficiency_score - efficiency.body.optimal_steps / efficiency.body.actual_avg_steps) < 1e-9,
    );
    // No pages in a hospital log: every step is an activity without friction facts.
    assert.deepEqual(
      efficiency.body.friction_points,
      top.path.filter((s) => s !== '...').map((step) => ({ step, friction_index: 0, common_issues: [] })),
    );
  });

  it('answers 400 for bad parameters, 404 for unknown ids and other projects', async () => {
    const api = pipeline!.api;
    const bad = async (query: string, field: string) => {
      const reply = await call(api, 'GET', `/analytics/workflows?${query}`, { key: sepsis.read });
      assert.equal(reply.status, 400, query);
      assert.equal(errorOf(reply).details.field, field);
    };
    await bad('min_frequency=-1', 'min_frequency');
    await bad('min_frequency=abc', 'min_frequency');
    await bad(`goal=${'g'.repeat(256)}`, 'goal');
    await bad('goal=', 'goal');
    assert.equal(
      errorOf(await call(api, 'GET', '/analytics/workflows/wf_nope/efficiency', { key: sepsis.read })).code,
      'not_found',
    );
    const other = await newProject(['analytics:read']);
    const { body } = await call<{ workflows: WorkflowRecord[] }>(api, 'GET', '/analytics/workflows', {
      key: sepsis.read,
    });
    const id = body.workflows[0]!.workflow_id;
    const foreign = await call(api, 'GET', `/analytics/workflows/${id}/efficiency`, { key: other.keys[0] });
    assert.equal(foreign.status, 404);
    const list = await call<{ workflows: WorkflowRecord[] }>(api, 'GET', '/analytics/workflows', {
      key: other.keys[0],
    });
    assert.deepEqual(list.body.workflows, []);
    assert.equal((await call(api, 'PUT', '/settings/goals', { key: sepsis.read, json: { goals: [] } })).status, 403);
    const invalid = await call(api, 'PUT', '/settings/goals', { key: sepsis.write, json: { goals: [''] } });
    assert.equal(invalid.status, 400);
  });

  it('never mines in the request: a new goal answers 202 until the worker has mined it; requested goals are bounded and expire', async () => {
    // An API that does not wait: what a read key's request costs is a row and a notification.
    const api = await startApi({ ...loadConfig(), port: 0, workflowWaitMs: 0 }, services());
    try {
      const { projectId, keys } = await newProject(['admin'], ['analytics:read']);
      const [admin, read] = keys as [string, string];
      const ask = (goal: string) =>
        call<{ workflows: unknown[]; status?: string }>(api, 'GET', `/analytics/workflows?goal=${goal}`, { key: read });
      const pending = await ask('signup');
      assert.deepEqual(
        [pending.status, pending.body],
        [202, { workflows: [], total: 0, page_number: 1, page: 1, per_page: 1000, next: null, status: 'computing' }],
      );
      assert.equal(pending.headers.get('retry-after'), '5');
      assert.equal(
        await count('select 1 from workflow_goals where project_id = $1 and computed_at is null', [projectId]),
        1,
      );
      // The worker mines it; the same question then answers 200.
      assert.equal(await refreshWorkflows(services(), projectId), 1);
      assert.equal((await ask('signup')).status, 200);

      const limited = await call(api, 'PUT', '/settings/analytics', {
        key: admin,
        json: { workflows: { maxRequestedGoals: 2 } },
      });
      assert.equal(limited.status, 200, JSON.stringify(limited.body));
      assert.equal((await ask('checkout')).status, 202);
      const refused = await ask('junk');
      assert.equal(refused.status, 409);
      assert.deepEqual(errorOf(refused).details, { field: 'goal', reason: 'limit_reached', limit: 2 });
      assert.equal((await ask('checkout')).status, 202, 'a goal already kept is still answered');
      assert.equal(await count('select 1 from workflow_goals where project_id = $1', [projectId]), 2);

      // A requested goal nobody asked for in requestedGoalTtlDays (30) is forgotten by the next pass.
      await services().db.query(
        `update workflow_goals set requested_at = now() - interval '31 days' where project_id = $1 and goal = 'signup'`,
        [projectId],
      );
      await refreshWorkflows(services(), projectId);
      assert.deepEqual(
        (await services().db.query('select goal from workflow_goals where project_id = $1', [projectId])).rows,
        [{ goal: 'checkout' }],
      );
    } finally {
      await api.close();
    }
  });

  it('keeps declared and Job goals up to date as events arrive and users are erased', async () => {
    const api = pipeline!.api;
    const { projectId, keys } = await newProject(['events:write', 'admin'], ['analytics:read']);
    const [write, read] = keys as [string, string];
    const T = Math.floor((Date.now() - 3600_000) / 1000) * 1000;
    // Each user: home ⇄ pricing twice (a confusion loop with quick backs), then signup.
    const journey = (user: string, offset: number) =>
      (
        [
          ['page_view', { page: '/home' }],
          ['page_view', { page: '/pricing' }],
          ['page_view', { page: '/home' }],
          ['page_view', { page: '/pricing' }],
          ['click', { page: '/pricing', element: '#plan' }],
          ['page_view', { page: '/signup' }],
          ['signup', {}],
        ] as const
      ).map(([event, properties], i) => ({
        user_id: user,
        event,
        properties,
        timestamp: new Date(T + offset + i * 2000).toISOString(),
        message_id: `${user}-${i}`,
      }));
    const post = async (events: object[]) =>
      assert.equal((await call(api, 'POST', '/events/batch', { key: write, json: { events } })).status, 202);
    assert.equal((await call(api, 'PUT', '/settings/goals', { key: write, json: { goals: ['signup'] } })).status, 200);
    assert.deepEqual((await call(api, 'GET', '/settings/goals', { key: write })).body, { goals: ['signup'] });
    await post([...journey('a', 0), ...journey('b', 100_000), ...journey('c', 200_000)]);
    await waitForAnalytics();

    const list = async () =>
      (await call<{ workflows: WorkflowRecord[] }>(api, 'GET', '/analytics/workflows', { key: read })).body.workflows;
    assert.deepEqual(await list(), [], 'nothing until the worker has run');
    assert.equal(await refreshWorkflows(services(), projectId), 1);
    assert.equal(await refreshWorkflows(services(), projectId), 0, 'nothing changed, nothing computed');
    const [signup] = await list();
    assert.deepEqual(signup!.path, ['/home', '/pricing', '/home', '/pricing', '/signup']);
    assert.deepEqual([signup!.occurrences, signup!.users, signup!.user_share, signup!.frequency], [3, 3, 1, 1]);
    assert.deepEqual([signup!.completion_rate, signup!.avg_time, signup!.efficiency_score], [1, 12, 1]);

    // Friction per step: the page's Friction Index as GET /analytics/friction computes it.
    const efficiency = (
      await call<Efficiency>(api, 'GET', `/analytics/workflows/${signup!.workflow_id}/efficiency`, { key: read })
    ).body;
    const friction = (
      await call<{ friction_points: { page: string; element: string | null; friction_index: number }[] }>(
        api,
        'GET',
        '/analytics/friction',
        { key: read },
      )
    ).body.friction_points;
    const pageIndex = (page: string) =>
      friction.find((p) => p.page === page && p.element === null)?.friction_index ?? 0;
    assert.deepEqual(
      efficiency.friction_points.map((p) => [p.step, p.friction_index]),
      signup!.path.map((step) => [step, pageIndex(step)]),
    );
    assert.ok(efficiency.friction_points[0]!.friction_index > 0);
    const issues = new Set(efficiency.friction_points.flatMap((p) => p.common_issues));
    assert.ok(issues.has('confusion') && issues.has('backtracking'), [...issues].join());
    // Spelt as the event context spells them (one name per signal kind in every answer).
    assert.deepEqual(
      [...issues].filter((i) => !Object.values(ISSUE_NAMES).includes(i as never)),
      [],
    );
    assert.deepEqual([efficiency.optimal_steps, efficiency.actual_avg_steps, efficiency.efficiency_score], [5, 5, 1]);

    // An active Job's goal is kept too, and dropped when the Job stops being active.
    const job = await call<{ id: string }>(api, 'POST', '/jobs', {
      key: write,
      json: { name: 'Pricing', goal: 'page_view' },
    });
    await call(api, 'PATCH', `/jobs/${job.body.id}`, { key: write, json: { status: 'active' } });
    assert.equal(await refreshWorkflows(services(), projectId), 1);
    assert.ok((await list()).some((w) => w.goal === 'page_view'));
    await call(api, 'PATCH', `/jobs/${job.body.id}`, { key: write, json: { status: 'paused' } });
    await refreshWorkflows(services(), projectId);
    assert.ok(!(await list()).some((w) => w.goal === 'page_view'));

    // A new user's events: the running worker picks the change up by itself.
    await post(journey('d', 300_000));
    await waitForAnalytics();
    const worker = await startWorkflowWorker(services());
    try {
      await waitFor('the worker to count user d', async () => (await list())[0]?.occurrences === 4);
    } finally {
      await worker.stop();
    }
    // Erasure marks the project changed: the next pass forgets the user.
    assert.equal((await call(api, 'DELETE', '/users/d', { key: write })).status, 200);
    await refreshWorkflows(services(), projectId);
    assert.deepEqual(
      (await list()).map((w) => [w.occurrences, w.users]),
      [[3, 3]],
    );
  });

  it('a replay of the analytics processor rebuilds the same workflow tables', async () => {
    await refreshWorkflows(services(), sepsis.projectId);
    const before = await snapshot(sepsis.projectId);
    assert.ok(before.workflows!.length > 10);
    await Promise.all(pipeline!.sinks.map((s) => s.stop()));
    pipeline!.sinks = [];
    assert.match(await runReplay('--only', 'analytics'), /replayed \d+ messages/);
    assert.ok((await refreshWorkflows(services(), sepsis.projectId)) > 0, 'the replay marked the project changed');
    assert.deepEqual(await snapshot(sepsis.projectId), before);
  });
});
