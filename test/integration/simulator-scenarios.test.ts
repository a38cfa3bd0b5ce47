import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { topicName } from '../../lib/kafka/topics.js';
import { refreshBehaviouralCohorts } from '../../workers/behavioural-cohorts/worker.js';
import { refreshJobs } from '../../workers/jobs/worker.js';
import { defaultOptions, sendSimulation } from '../../scripts/simulate.js';
import { type ScenarioAnswers, simulate } from '../../scripts/simulate/generator.js';
import {
  call,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
  waitForSink,
} from './helpers.js';

const close = (actual: unknown, expected: number, what: string, tolerance = 1e-9) =>
  assert.ok(
    typeof actual === 'number' && Math.abs(actual - expected) <= tolerance,
    `${what}: ${String(actual)} ≠ ${expected}`,
  );

interface JobMetrics {
  users_targeted: number;
  users_completed: number;
  completion_rate: number;
  avg_time_to_completion: number;
}

/**
 * The simulator's scenarios (planted workflows, job completions, behavioural groups) sent through
 * the real API into a project of their own: what the API reports equals what the plan implies.
 */
describe("the simulator's scenarios: workflows, job completions and behavioural groups as planted", function () {
  this.timeout(60_000);
  let pipeline: TestPipeline;
  let api: RunningApi;
  let admin: string;
  let read: string;
  let jobId: string;
  let planned: ScenarioAnswers;
  const options = { ...defaultOptions(23, 0, 0), scenarios: { perGroup: 24 } };

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    api = pipeline.api;
    const project = await newProject(['events:write', 'admin'], ['analytics:read']);
    [admin, read] = project.keys as [string, string];
    // The job exists and is active before any goal event: completions count from its creation.
    const { job } = simulate(options).answers.scenarios!;
    const created = await call<{ id: string }>(api, 'POST', '/jobs', {
      key: admin,
      json: { name: 'Create a project', goal: job.goal, target_audience: job.target_audience },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    jobId = created.body.id;
    const activated = await call(api, 'PATCH', `/jobs/${jobId}`, { key: admin, json: { status: 'active' } });
    assert.equal(activated.status, 200, JSON.stringify(activated.body));

    const simulation = await sendSimulation(api.baseUrl, admin, options);
    planned = simulation.answers.scenarios!;
    assert.equal(simulation.answers.events, 0, 'the scenarios alone');
    await waitForSink('raw-sink', topicName('events'), 30_000);
    await waitForAnalytics(30_000);
    assert.ok((await refreshWorkflows(services(), project.projectId)) >= 1);
    await refreshJobs(services(), project.projectId);
    assert.equal(await refreshBehaviouralCohorts(services(), project.projectId), 1);
  });
  after(() => stopPipeline(pipeline));

  it('reports the planted workflows of the goal exactly', async () => {
    const { goal, workflows } = planned.workflows;
    const reply = await call<{ workflows: (Record<string, unknown> & { path: string[]; occurrences: number })[] }>(
      api,
      'GET',
      `/analytics/workflows?goal=${goal}`,
      { key: read },
    );
    assert.equal(reply.status, 200);
    const found = reply.body.workflows;
    assert.deepEqual(
      found.map((w) => w.path),
      workflows.map((w) => w.path),
    );
    for (const [k, w] of found.entries()) {
      const e = workflows[k]!;
      const what = JSON.stringify(e.path);
      assert.equal(w.goal, goal);
      assert.deepEqual([w.occurrences, w.users], [e.occurrences, e.users], what);
      close(w.frequency, e.frequency, `${what} frequency`);
      close(w.user_share, e.user_share, `${what} user_share`);
      close(w.completion_rate, e.completion_rate, `${what} completion_rate`);
      close(w.avg_time, e.avg_time, `${what} avg_time`, 1e-6);
    }
  });

  it('reports the planted job completions in /analytics/jobs and /jobs alike', async () => {
    const { job } = planned;
    const analytics = await call<{ metrics: JobMetrics }>(api, 'GET', `/analytics/jobs/${jobId}`, { key: read });
    const detail = await call<{ metrics: JobMetrics }>(api, 'GET', `/jobs/${jobId}`, { key: admin });
    assert.deepEqual([analytics.status, detail.status], [200, 200]);
    for (const [where, metrics] of [
      ['analytics', analytics.body.metrics],
      ['jobs', detail.body.metrics],
    ] as const) {
      assert.deepEqual(
        [metrics.users_targeted, metrics.users_completed],
        [job.users_targeted, job.users_completed],
        where,
      );
      close(metrics.completion_rate, job.completion_rate, `${where} completion_rate`);
      close(metrics.avg_time_to_completion, job.avg_time_to_completion, `${where} avg_time_to_completion`, 1e-6);
    }
  });

  it('recovers each planted behavioural group as one cohort with ≥ 95 % purity', async () => {
    const reply = await call<{ cohorts: { id: string; name: string; size: number }[] }>(
      api,
      'GET',
      '/analytics/cohorts',
      { key: read },
    );
    assert.equal(reply.status, 200);
    const groups = new Set(Object.values(planned.groups));
    assert.equal(reply.body.cohorts.length, groups.size, JSON.stringify(reply.body.cohorts));
    assert.equal(
      reply.body.cohorts.reduce((sum, c) => sum + c.size, 0),
      planned.users,
    );
    const dominated = new Set<string>();
    for (const cohort of reply.body.cohorts) {
      const members: string[] = [];
      for (let page = 1; members.length < cohort.size; page++) {
        const users = await call<{ users: { user_id: string }[] }>(
          api,
          'GET',
          `/analytics/cohorts/${cohort.id}/users?per_page=100&page=${page}`,
          { key: read },
        );
        assert.equal(users.status, 200);
        assert.ok(users.body.users.length > 0, `${cohort.id}: page ${page} is empty`);
        members.push(...users.body.users.map((u) => u.user_id));
      }
      const counts = new Map<string, number>();
      for (const user of members) counts.set(planned.groups[user]!, (counts.get(planned.groups[user]!) ?? 0) + 1);
      const [group, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
      assert.ok(n / members.length >= 0.95, `${cohort.name}: ${JSON.stringify([...counts])}`);
      assert.ok(!dominated.has(group), `${group} dominates two cohorts`);
      dominated.add(group);
    }
    assert.equal(dominated.size, groups.size);
  });
});
