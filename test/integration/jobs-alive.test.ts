import assert from 'node:assert/strict';
import { refreshJobs } from '../../workers/jobs/worker.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import {
  call,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';

interface JobMetrics {
  completion_rate: number;
  avg_time_to_completion: number;
  users_targeted: number;
  users_completed: number;
}

/**
 * A job that targets pro users: who it targets follows their properties, completions come from
 * goal events of targeted users only, interventions are counted, and the numbers in /jobs are
 * the job analytics' own.
 */
describe('jobs come alive: targeting, completions, interventions, metrics', function () {
  this.timeout(60_000);
  let pipeline: TestPipeline;
  let key: string;
  let projectId: string;
  let jobId: string;
  const t0 = Date.now() - 3600_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    const project = await newProject(['admin']);
    [projectId, key] = [project.projectId, project.keys[0]!];
  });
  after(() => stopPipeline(pipeline));

  const api = () => pipeline.api;
  const identify = async (userId: string, properties: object) => {
    const reply = await call(api(), 'POST', '/users/identify', { key, json: { user_id: userId, properties } });
    assert.ok([200, 201].includes(reply.status), JSON.stringify(reply.body));
  };
  const post = async (events: object[]) => {
    assert.equal((await call(api(), 'POST', '/events/batch', { key, json: { events } })).status, 202);
    await waitForAnalytics();
  };
  const targets = async () =>
    (
      await services().db.query<{ user_id: string }>(
        'select user_id from job_targets where project_id = $1 and job_id = $2 order by user_id',
        [projectId, jobId],
      )
    ).rows.map((r) => r.user_id);

  it('targets the users whose properties satisfy the criteria, and follows property changes', async () => {
    await identify('ann', { plan: 'pro' });
    await identify('bob', { plan: 'pro' });
    await identify('cat', { plan: 'free' });
    const created = await call<{ id: string }>(api(), 'POST', '/jobs', {
      key,
      json: {
        name: 'Export a report',
        goal: 'report_exported',
        target_audience: { type: 'segment', criteria: "plan == 'pro'" },
      },
    });
    jobId = created.body.id;
    await refreshJobs(services(), projectId);
    assert.deepEqual(await targets(), [], 'a draft job targets no one');
    await call(api(), 'PATCH', `/jobs/${jobId}`, { key, json: { status: 'active' } });
    await refreshJobs(services(), projectId);
    assert.deepEqual(await targets(), ['ann', 'bob']);
    const patched = await call(api(), 'PATCH', `/users/cat`, { key, json: { properties: { plan: 'pro' } } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await refreshJobs(services(), projectId);
    assert.deepEqual(await targets(), ['ann', 'bob', 'cat']);
    await call(api(), 'PATCH', `/users/cat`, { key, json: { properties: { plan: 'free' } } });
    await refreshJobs(services(), projectId);
    assert.deepEqual(await targets(), ['ann', 'bob']);
  });

  it('completes for targeted users only, counts interventions, and reports the same numbers everywhere', async () => {
    const session = (user: string, start: number, goal: boolean) => [
      { user_id: user, event: 'page_view', timestamp: at(start), properties: { page: '/reports' } },
      {
        user_id: user,
        event: 'intervention_shown',
        timestamp: at(start + 1),
        properties: { job_id: jobId, intervention: 'hint', page: '/reports' },
      },
      ...(goal
        ? [
            {
              user_id: user,
              event: 'intervention_accepted',
              timestamp: at(start + 2),
              properties: { job_id: jobId, intervention: 'hint', page: '/reports' },
            },
            { user_id: user, event: 'report_exported', timestamp: at(start + 60), properties: { page: '/reports' } },
          ]
        : [{ user_id: user, event: 'page_view', timestamp: at(start + 5), properties: { page: '/settings' } }]),
    ];
    // ann completes 60 s after her first event; bob stops on /settings; cat (not targeted) reaches the goal.
    await post([...session('ann', 0, true), ...session('bob', 0, false), ...session('cat', 0, true)]);
    const completions = await services().db.query<{ user_id: string }>(
      'select user_id from job_completions where project_id = $1 and job_id = $2',
      [projectId, jobId],
    );
    assert.deepEqual(
      completions.rows.map((r) => r.user_id),
      ['ann'],
    );
    await refreshJobs(services(), projectId);
    const job = await call<{ metrics: JobMetrics }>(api(), 'GET', `/jobs/${jobId}`, { key });
    // ann's first event after the job existed was 60 s before her goal event.
    assert.deepEqual(job.body.metrics, {
      completion_rate: 1 / 2,
      avg_time_to_completion: 60,
      users_targeted: 2,
      users_completed: 1,
    });
    await refreshWorkflows(services(), projectId);
    const analytics = await call<{
      metrics: object;
      paths_to_success: { path: string[]; frequency: number; avg_time: number }[];
      drop_off_points: { step: string; drop_off_rate: number; friction_index: number }[];
    }>(api(), 'GET', `/analytics/jobs/${jobId}`, { key });
    assert.equal(analytics.status, 200);
    assert.deepEqual(analytics.body.metrics, {
      ...job.body.metrics,
      intervention_acceptance_rate: Math.round((2 / 3) * 1e9) / 1e9, // 9 decimals, as every analytics answer
    });
    // ann and cat took the same path to the goal (the goal's workflows, whoever took them).
    assert.deepEqual(analytics.body.paths_to_success, [
      { path: ['/reports', 'intervention_shown', 'intervention_accepted'], frequency: 1, avg_time: 60 },
    ]);
    // bob, targeted and not done, stopped on /settings: the only user who reached it.
    assert.equal(analytics.body.drop_off_points.length, 1);
    const [drop] = analytics.body.drop_off_points;
    assert.deepEqual([drop!.step, drop!.drop_off_rate], ['/settings', 1]);
    assert.ok(drop!.friction_index >= 0 && drop!.friction_index <= 1);
    assert.equal((await call(api(), 'GET', '/analytics/jobs/job_nope', { key })).status, 404);
    const other = await newProject(['admin']);
    assert.equal((await call(api(), 'GET', `/analytics/jobs/${jobId}`, { key: other.keys[0] })).status, 404);

    const list = await call<{ jobs: { id: string; metrics: object }[] }>(api(), 'GET', '/jobs', { key });
    assert.deepEqual(list.body.jobs.find((j) => j.id === jobId)!.metrics, {
      completion_rate: 0.5,
      users_targeted: 2,
      users_completed: 1,
    });
    const stored = await services().db.query<{
      interventions_shown: number;
      interventions_accepted: number;
      intervention_acceptance_rate: number;
    }>('select * from job_analytics where project_id = $1 and job_id = $2', [projectId, jobId]);
    assert.deepEqual(
      [
        stored.rows[0]!.interventions_shown,
        stored.rows[0]!.interventions_accepted,
        stored.rows[0]!.intervention_acceptance_rate,
      ],
      [3, 2, 2 / 3],
    );
  });

  it('the worker refreshes a project only when its inputs changed', async () => {
    const computedAt = async () =>
      (
        await services().db.query<{ at: Date }>(
          'select computed_at as at from job_analytics where project_id = $1 and job_id = $2',
          [projectId, jobId],
        )
      ).rows[0]!.at.getTime();
    await refreshJobs(services());
    const first = await computedAt();
    await refreshJobs(services());
    assert.equal(await computedAt(), first, 'nothing changed: the job was not recomputed');
    await identify('dan', { plan: 'pro' });
    await refreshJobs(services());
    assert.ok((await computedAt()) > first, 'a new pro user: recomputed');
    assert.deepEqual(await targets(), ['ann', 'bob', 'dan']);
  });
});
