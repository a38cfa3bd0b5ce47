import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, newProject, services, startTestApi } from './helpers.js';

/** Every number of an answer, with where it is. */
function numbers(value: unknown, at = ''): [string, number][] {
  if (typeof value === 'number') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbers(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numbers(v, `${at}.${k}`));
  return [];
}

const THIRD = 1 / 3;
const rounded = (x: number) => Math.round(x * 1e9) / 1e9;

/**
 * The workers store raw floats (1/3 and the like); the workflow and job answers carry 9 decimals,
 * as every other analytics answer. The rows are written here as the workers would write them.
 */
describe('workflow and job answers: 9 decimals', () => {
  let api: RunningApi;
  let key: string;
  let projectId: string;

  before(async () => {
    api = await startTestApi();
    const project = await newProject(['admin']);
    projectId = project.projectId;
    key = project.keys[0]!;
    const db = services().db;
    await db.query(`insert into workflow_goals (project_id, goal, computed_at) values ($1, 'signup', now())`, [
      projectId,
    ]);
    for (const rank of [1, 2, 3]) {
      await db.query(
        `insert into workflows (project_id, goal, workflow_id, rank, path, occurrences, frequency, users, user_share,
                                completion_rate, avg_time_seconds, efficiency_score, optimal_steps, actual_avg_steps)
         values ($1, 'signup', $2, $3, array['/home', '/signup'], 1, $4, 1, $4, $4, $4, $4, 2, $5)`,
        [projectId, `wf_${String(rank).repeat(20)}`, rank, THIRD, 2 + THIRD],
      );
    }
    await db.query(
      `insert into jobs (project_id, job_id, name, goal, status) values ($1, 'job_0123456789abcdef', 'Sign up', 'signup', 'active')`,
      [projectId],
    );
    await db.query(
      `insert into job_analytics (project_id, job_id, users_targeted, users_completed, completion_rate,
                                  avg_time_to_completion, interventions_shown, interventions_accepted,
                                  intervention_acceptance_rate, drop_off_points)
       values ($1, 'job_0123456789abcdef', 3, 1, $2, $3, 3, 1, $2, $4)`,
      [projectId, THIRD, 10 + THIRD, JSON.stringify([{ step: '/home', drop_off_rate: THIRD, friction_index: THIRD }])],
    );
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  for (const path of [
    '/analytics/workflows',
    `/analytics/workflows/wf_${'1'.repeat(20)}/efficiency`,
    '/analytics/jobs/job_0123456789abcdef',
    '/jobs/job_0123456789abcdef',
    '/jobs',
  ]) {
    it(path, async () => {
      const reply = await call(api, 'GET', path, { key });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const found = numbers(reply.body);
      assert.ok(
        found.some(([, x]) => x === rounded(THIRD) || x === rounded(2 + THIRD) || x === rounded(10 + THIRD)),
        JSON.stringify(reply.body),
      );
      for (const [at, x] of found) assert.equal(x, rounded(x), `${path} ${at}`);
    });
  }

  it('pages the workflows like the admin lists', async () => {
    const reply = await call<{ workflows: { workflow_id: string }[]; total: number; page: number; per_page: number }>(
      api,
      'GET',
      '/analytics/workflows?per_page=2&page=2',
      { key },
    );
    assert.deepEqual(
      [reply.body.workflows.map((w) => w.workflow_id), reply.body.total, reply.body.page, reply.body.per_page],
      [[`wf_${'3'.repeat(20)}`], 3, 2, 2],
    );
  });
});
