import assert from 'node:assert/strict';
import { routeTable } from '../../api/app.js';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, errorOf, newProject, services, startTestApi } from './helpers.js';

/** Every GET of the route table, its path parameters filled with a value of the right form. */
function getPaths(): string[] {
  const deps = { db: services().db, log: services().log } as Parameters<typeof routeTable>[0];
  return routeTable(deps)
    .filter((r) => r.method === 'GET')
    .map((r) =>
      r.path.replace(/:(\w+)/g, (_, name: string) => (name === 'workflow_id' ? `wf_${'0'.repeat(20)}` : 'x')),
    );
}

describe('query parameters', () => {
  let api: RunningApi;
  let key: string;

  before(async () => {
    api = await startTestApi();
    key = (await newProject(['events:write', 'analytics:read', 'admin'])).keys[0]!;
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  it('an unknown one is a 400 naming it, on every GET route', async () => {
    const paths = getPaths();
    assert.ok(paths.length > 30, `GET routes: ${paths.length}`);
    for (const path of paths) {
      const reply = await call(api, 'GET', `${path}?date_rnge=last_7_days`, { key });
      assert.equal(reply.status, 400, `${path}: ${JSON.stringify(reply.body)}`);
      assert.deepEqual(errorOf(reply).details, { field: 'date_rnge', reason: 'unknown_parameter' }, path);
      assert.match(errorOf(reply).message, /date_rnge/, path);
    }
  });

  it('a declared one still answers', async () => {
    const reply = await call(api, 'GET', '/analytics/friction?date_range=last_7_days&include_zero=true', { key });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const paged = await call(api, 'GET', '/api-keys?page=1&per_page=5', { key });
    assert.equal(paged.status, 200, JSON.stringify(paged.body));
  });
});
