import assert from 'node:assert/strict';
import { DAY_MS, isoDay } from '../../domain/time.js';
import { refreshJobs } from '../../workers/jobs/worker.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import {
  call,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';

type Workflow = { workflow_id: string; path: string[]; occurrences: number; users: number; user_share: number };

/**
 * date_range on workflows, job analytics and cohorts (issue 19): events planted on an old day
 * (40 days ago: three users along /a → /b) and a recent one (2 days ago: two users along /c) give
 * windowed answers that hold only the sessions, starters and active members of their days.
 */
describe('date_range on workflows, job analytics and cohorts', function () {
  this.timeout(300_000);
  let pipeline: TestPipeline;
  let key: string;
  let jobId: string;
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const oldDay = today - 40 * DAY_MS;
  const recentDay = today - 2 * DAY_MS;
  const old = `date_range=custom&start=${isoDay(oldDay)}&end=${isoDay(oldDay)}`;

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    const project = await newProject(['events:write', 'analytics:read', 'admin']);
    key = project.keys[0]!;
    const api = pipeline.api;
    assert.equal((await call(api, 'PUT', '/settings/goals', { key, json: { goals: ['signup'] } })).status, 200);
    const job = await call<{ id: string }>(api, 'POST', '/jobs', { key, json: { name: 'Sign up', goal: 'signup' } });
    jobId = job.body.id;
    assert.equal((await call(api, 'PATCH', `/jobs/${jobId}`, { key, json: { status: 'active' } })).status, 200);
    const session = (user: string, day: number, pages: string[]) =>
      [...pages.map((page) => ({ event: 'page_view', properties: { page } })), { event: 'signup', properties: {} }].map(
        (e, i) => ({ user_id: user, timestamp: new Date(day + 10 * 3_600_000 + i * 20_000).toISOString(), ...e }),
      );
    const events = [
      ...['o1', 'o2', 'o3'].flatMap((u) => session(u, oldDay, ['/a', '/b'])),
      ...['r1', 'r2'].flatMap((u) => session(u, recentDay, ['/c'])),
    ];
    assert.equal((await call(api, 'POST', '/events/batch', { key, json: { events } })).status, 202);
    await waitForAnalytics();
    await refreshWorkflows(services(), project.projectId);
    await refreshJobs(services(), project.projectId);
  });
  after(() => stopPipeline(pipeline));

  const get = <T>(path: string) => call<T>(pipeline.api, 'GET', path, { key });

  it('workflows: all history by default, the sessions of the range with date_range', async () => {
    const all = await get<{ workflows: Workflow[]; date_range?: unknown }>('/analytics/workflows?goal=signup');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(
      all.body.workflows.map((w) => [w.path, w.occurrences, w.users]),
      [
        [['/a', '/b'], 3, 3],
        [['/c'], 2, 2],
      ],
    );
    assert.equal(all.body.date_range, undefined);

    const recent = await get<{ workflows: Workflow[]; date_range: unknown }>(
      '/analytics/workflows?goal=signup&date_range=last_7_days',
    );
    assert.equal(recent.status, 200, JSON.stringify(recent.body));
    assert.deepEqual(
      recent.body.workflows.map((w) => [w.path, w.occurrences, w.users, w.user_share]),
      [[['/c'], 2, 2, 1]],
    );
    assert.deepEqual(recent.body.date_range, { start: isoDay(today - 6 * DAY_MS), end: isoDay(today) });

    const early = await get<{ workflows: Workflow[] }>(`/analytics/workflows?${old}`);
    assert.deepEqual(
      early.body.workflows.map((w) => [w.path, w.occurrences, w.user_share]),
      [[['/a', '/b'], 3, 1]],
    );

    // The efficiency of the old path: all history, its old day, and not in the last week.
    const id = all.body.workflows[0]!.workflow_id;
    const efficiency = await get<{ actual_avg_steps: number; occurrences?: number }>(
      `/analytics/workflows/${id}/efficiency`,
    );
    assert.equal(efficiency.status, 200);
    assert.equal(efficiency.body.occurrences, undefined);
    const windowed = await get<{ actual_avg_steps: number; occurrences: number }>(
      `/analytics/workflows/${id}/efficiency?${old}`,
    );
    assert.equal(windowed.status, 200, JSON.stringify(windowed.body));
    assert.deepEqual([windowed.body.actual_avg_steps, windowed.body.occurrences], [2, 3]);
    const missing = await get(`/analytics/workflows/${id}/efficiency?date_range=last_7_days`);
    assert.equal(missing.status, 404);
    assert.equal(errorOf(missing).details.reason, 'not_in_range');

    const bad = await get('/analytics/workflows?start=2026-01-01');
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad).details.field, 'start');
  });

  it('job analytics: the users who started on the job in the range', async () => {
    type Job = { metrics: Record<string, number>; paths_to_success: { path: string[] }[]; date_range?: unknown };
    const all = await get<Job>(`/analytics/jobs/${jobId}`);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual([all.body.metrics.users_targeted, all.body.metrics.users_completed], [5, 5]);
    assert.equal(all.body.paths_to_success.length, 2);
    const recent = await get<Job>(`/analytics/jobs/${jobId}?date_range=last_30_days`);
    assert.equal(recent.status, 200, JSON.stringify(recent.body));
    assert.deepEqual([recent.body.metrics.users_targeted, recent.body.metrics.users_completed], [2, 2]);
    assert.deepEqual(
      recent.body.paths_to_success.map((p) => p.path),
      [['/c']],
    );
    assert.ok(recent.body.date_range);
    const early = await get<Job>(`/analytics/jobs/${jobId}?${old}`);
    assert.deepEqual([early.body.metrics.users_targeted, early.body.metrics.completion_rate], [3, 1]);
  });

  it('cohorts: a cohort counts its members active in the range; the clustering refuses a window', async () => {
    const created = await call<{ id: string }>(pipeline.api, 'POST', '/cohorts', {
      key,
      json: { name: 'Active', criteria: { days_active: { gte: 1 } } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const all = await get<{ size: number; active_members?: number }>(`/analytics/cohorts/${created.body.id}`);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual([all.body.size, all.body.active_members], [5, undefined]);
    const recent = await get<{ size: number; active_members: number }>(
      `/analytics/cohorts/${created.body.id}?date_range=last_7_days`,
    );
    assert.deepEqual([recent.body.size, recent.body.active_members], [5, 2]);
    const early = await get<{ active_members: number }>(`/analytics/cohorts/${created.body.id}?${old}`);
    assert.equal(early.body.active_members, 3);

    for (const path of ['/analytics/cohorts', `/analytics/cohorts/${created.body.id}/users`]) {
      const refused = await get(`${path}?date_range=last_7_days`);
      assert.equal(refused.status, 400, path);
      assert.deepEqual(errorOf(refused).details, { field: 'date_range', reason: 'not_applicable' }, path);
      assert.match(errorOf(refused).message, /does not apply/, path);
    }
  });
});
