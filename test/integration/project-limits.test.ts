import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { PROJECT_LIMITS } from '../../domain/limits.js';
import { refreshCohortMembership } from '../../workers/cohort-membership/worker.js';
import { call, closeServices, errorOf, isolateTopics, newProject, services, startTestApi } from './helpers.js';

describe('limits per project', function () {
  this.timeout(120_000);
  let api: RunningApi;
  let projectId: string;
  let key: string;

  before(async () => {
    await isolateTopics();
    api = await startTestApi();
    ({
      projectId,
      keys: [key = ''],
    } = await newProject(['admin']));
  });

  after(async () => {
    await api.close();
    await closeServices();
  });

  const count = async (sql: string) => (await services().db.query<{ n: number }>(sql, [projectId])).rows[0]!.n;

  it('keeps at most the custom cohort limit, answers 409 beyond it, and frees a place on delete', async () => {
    const limit = PROJECT_LIMITS.customCohorts;
    const define = (i: number) =>
      call<{ id: string }>(api, 'POST', '/cohorts', {
        key,
        json: { name: `c${i}`, criteria: { events: { gte: i } } },
      });
    for (let i = 0; i < limit; i++) assert.equal((await define(i)).status, 201);
    const refused = await define(limit);
    assert.equal(refused.status, 409);
    assert.deepEqual(errorOf(refused).details, { reason: 'limit_reached', limit });
    assert.equal(errorOf(refused).code, 'conflict');
    const stored = `select count(*)::int as n from cohorts where project_id = $1`;
    assert.equal(await count(stored), limit, 'nothing stored');

    const { body } = await call<{ cohorts: { id: string }[] }>(api, 'GET', '/cohorts?per_page=1', { key });
    const gone = await call(api, 'DELETE', `/cohorts/${body.cohorts[0]!.id}`, { key });
    assert.equal(gone.status, 200);
    assert.deepEqual(gone.body, { id: body.cohorts[0]!.id, deleted: true });
    assert.equal((await call(api, 'DELETE', `/cohorts/${body.cohorts[0]!.id}`, { key })).status, 404);
    assert.equal((await define(limit + 1)).status, 201);
  });

  it('evaluates at most the per-pass number of new cohorts over all users in one pass', async () => {
    const evaluated = `select count(*)::int as n from cohort_evaluations where project_id = $1`;
    const perPass = PROJECT_LIMITS.fullCohortEvaluationsPerPass;
    const total = await count(`select count(*)::int as n from cohorts where project_id = $1`);
    assert.ok(total > 2 * perPass);
    for (let pass = 1; pass * perPass < total; pass++) {
      await refreshCohortMembership(services());
      assert.equal(await count(evaluated), pass * perPass, `after pass ${pass}`);
    }
    await refreshCohortMembership(services());
    assert.equal(await count(evaluated), total);
  });

  it('throttles manual report runs per project with 429 and Retry-After', async () => {
    const report = await call<{ id: string }>(api, 'POST', '/analytics/reports', {
      key,
      json: { name: 'weekly', type: 'friction', schedule: 'weekly', recipients: ['a@example.com'] },
    });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    const runNow = () => call(api, 'POST', `/analytics/reports/${report.body.id}/run`, { key });
    // Under the limit a run passes the throttle: queued (202), or 503 where no reports worker has ever
    // created its queue in this database (which depends on the test files run before this one).
    const first = (await runNow()).status;
    assert.ok(first === 202 || first === 503, `status ${first}`);
    await services().db.query('delete from report_runs where project_id = $1', [projectId]);
    // The hour's runs, as earlier requests left them: the oldest 20 minutes ago.
    await services().db.query(
      `insert into report_runs (project_id, report_id, run_id, trigger, period_start, period_end, recipients, created_at)
       select $1, $2, 'run_' || i, 'manual', '2026-01-01', '2026-01-07', '{a@example.com}',
              now() - interval '20 minutes' + i * interval '1 minute'
       from generate_series(1, $3::int) i`,
      [projectId, report.body.id, PROJECT_LIMITS.manualReportRunsPerHour],
    );
    const refused = await runNow();
    assert.equal(refused.status, 429);
    assert.equal(errorOf(refused).code, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    // The oldest run leaves the hour in 41 minutes.
    assert.ok(retryAfter > 40 * 60 && retryAfter <= 41 * 60, `Retry-After ${retryAfter}`);
    assert.deepEqual(errorOf(refused).details, {
      limit: PROJECT_LIMITS.manualReportRunsPerHour,
      retry_after: retryAfter,
    });
    assert.equal(
      await count(`select count(*)::int as n from report_runs where project_id = $1`),
      PROJECT_LIMITS.manualReportRunsPerHour,
      'nothing recorded',
    );
  });

  it("refuses a merge that would take a user's properties over the size limit, changing nothing", async () => {
    const half = 'x'.repeat(PROJECT_LIMITS.userPropertiesBytes / 2);
    const first = await call(api, 'POST', '/users/identify', {
      key,
      json: { user_id: 'big', properties: { a: half } },
    });
    assert.equal(first.status, 201);
    const refused = await call(api, 'POST', '/users/identify', {
      key,
      json: { user_id: 'big', properties: { b: half } },
    });
    assert.equal(refused.status, 409);
    assert.deepEqual(errorOf(refused).details, {
      field: 'properties',
      reason: 'limit_reached',
      limit_bytes: PROJECT_LIMITS.userPropertiesBytes,
    });
    const patched = await call(api, 'PATCH', '/users/big', { key, json: { properties: { c: half } } });
    assert.equal(patched.status, 409);
    const stored = await call<{ properties: Record<string, unknown> }>(api, 'GET', '/users/big', { key });
    assert.deepEqual(Object.keys(stored.body.properties), ['a'], 'nothing merged');
    // Replacing a value within the limit is fine, and a null frees the place.
    const replaced = await call(api, 'PATCH', '/users/big', { key, json: { properties: { a: null, b: half } } });
    assert.equal(replaced.status, 200);
  });
});
