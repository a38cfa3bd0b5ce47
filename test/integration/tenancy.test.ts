import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, errorOf, newProject, startTestApi } from './helpers.js';

/**
 * Two projects, each with its own objects: every endpoint called with project B's key on project
 * A's objects answers 404 (or, for lists, shows none of A's rows), and nothing of A changes.
 */
describe('tenancy: two projects over every endpoint', () => {
  let api: RunningApi;
  let a: string;
  let b: string;
  const ids: Record<string, string> = {};

  before(async () => {
    api = await startTestApi();
    a = (await newProject(['admin'])).keys[0]!;
    b = (await newProject(['admin'])).keys[0]!;
    const post = async (path: string, json: unknown) =>
      (await call<{ id: string }>(api, 'POST', path, { key: a, json })).body;
    ids.job = (await post('/jobs', { name: 'A job' })).id;
    ids.cohort = (await post('/cohorts', { name: 'A cohort', criteria: { events: { gte: 0 } } })).id;
    ids.webhook = (await post('/webhooks', { url: 'https://a.example.com/h', events: ['job.completed'] })).id;
    ids.key = (await post('/api-keys', { name: 'A key', scopes: ['events:write'] })).id;
    ids.export = (
      await post('/analytics/export/warehouse', {
        destination: 'duckdb',
        credentials: { database: 'a' },
        tables: ['events'],
      })
    ).id;
    await post('/users/identify', { user_id: 'a-user', properties: { plan: 'pro' } });
    await post('/analytics/reports', {
      name: 'A report',
      type: 'friction',
      schedule: 'daily',
      recipients: ['a@example.com'],
    });
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  it("answers 404 to another project's objects", async () => {
    const cases: [string, string, unknown?][] = [
      ['GET', `/jobs/${ids.job}`],
      ['PATCH', `/jobs/${ids.job}`, { name: 'stolen' }],
      ['DELETE', `/jobs/${ids.job}`],
      ['GET', `/cohorts/${ids.cohort}/users`],
      ['DELETE', `/cohorts/${ids.cohort}`],
      ['GET', `/webhooks/${ids.webhook}`],
      ['PATCH', `/webhooks/${ids.webhook}`, { status: 'paused' }],
      ['POST', `/webhooks/${ids.webhook}/test`],
      ['DELETE', `/webhooks/${ids.webhook}`],
      ['DELETE', `/api-keys/${ids.key}`],
      ['GET', `/analytics/export/warehouse/${ids.export}`],
      ['GET', '/users/a-user'],
      ['PATCH', '/users/a-user', { properties: { plan: 'free' } }],
    ];
    for (const [method, path, json] of cases) {
      const reply = await call(api, method, path, { key: b, json });
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.equal(errorOf(reply).code, 'not_found');
    }
  });

  it("lists never show another project's rows", async () => {
    for (const [path, field] of [
      ['/jobs', 'jobs'],
      ['/cohorts', 'cohorts'],
      ['/webhooks', 'webhooks'],
    ] as const) {
      const mine = await call<Record<string, unknown[]> & { total: number }>(api, 'GET', path, { key: a });
      const theirs = await call<Record<string, unknown[]> & { total: number }>(api, 'GET', path, { key: b });
      assert.equal(mine.body.total, 1, path);
      assert.deepEqual([theirs.body.total, theirs.body[field]!.length], [0, 0], path);
    }
    const keys = await call<{ api_keys: { id: string }[] }>(api, 'GET', '/api-keys', { key: b });
    assert.ok(!keys.body.api_keys.some((k) => k.id === ids.key));
  });

  it("B's erasure and identify do not touch A's user of the same id", async () => {
    assert.equal((await call(api, 'DELETE', '/users/a-user', { key: b })).status, 200);
    await call(api, 'POST', '/users/identify', { key: b, json: { user_id: 'a-user', properties: { plan: 'b' } } });
    const mine = await call<{ properties: unknown }>(api, 'GET', '/users/a-user', { key: a });
    assert.deepEqual(mine.body.properties, { plan: 'pro' });
    const job = await call<{ name: string }>(api, 'GET', `/jobs/${ids.job}`, { key: a });
    assert.equal(job.body.name, 'A job');
    assert.equal((await call(api, 'GET', '/webhooks', { key: a })).status, 200);
  });
});
