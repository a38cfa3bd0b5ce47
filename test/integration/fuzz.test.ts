import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, newProject, services, startTestApi } from './helpers.js';

/** Row counts of the tables the write endpoints touch, for the project. */
async function snapshot(projectId: string): Promise<Record<string, number | string>> {
  const tables = ['jobs', 'users', 'cohorts', 'webhook_subscriptions', 'api_keys', 'reports', 'warehouse_exports'];
  const counts: Record<string, number | string> = {};
  const { rows: settings } = await services().db.query<{ settings: string }>(
    'select settings::text as settings from projects where project_id = $1',
    [projectId],
  );
  counts.settings = settings[0]!.settings;
  for (const table of tables) {
    const { rows } = await services().db.query<{ n: number }>(
      `select count(*)::int as n from ${table} where project_id = $1`,
      [projectId],
    );
    counts[table] = rows[0]!.n;
  }
  return counts;
}

const hostile = fc.oneof(
  fc.anything({ maxDepth: 4, withObjectString: true, withNullPrototype: true, withBigInt: false }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ minLength: 70_000, maxLength: 70_010 }),
  fc
    .integer()
    .map(
      (depth) =>
        JSON.parse('['.repeat(200 + (Math.abs(depth) % 200)) + ']'.repeat(200 + (Math.abs(depth) % 200))) as unknown,
    ),
  fc.constantFrom(null, true, 0, -1, 1e308, '', [], {}),
);

/** Valid-looking bodies with one field replaced by something hostile. */
const mutated = (base: Record<string, unknown>) =>
  fc
    .record({ key: fc.constantFrom(...Object.keys(base), '__proto__', 'constructor', 'extra'), value: hostile })
    .map(({ key, value }) => JSON.parse(JSON.stringify({ ...base, [key]: value }) ?? 'null') as unknown);

const endpoints: [string, string, Record<string, unknown>][] = [
  ['POST', '/jobs', { name: 'n', priority: 'high', target_audience: { type: 'segment', criteria: "plan == 'x'" } }],
  ['PATCH', '/jobs/JOB', { status: 'active', priority: 'low' }],
  ['POST', '/users/identify', { user_id: 'u', properties: { plan: 'pro' } }],
  ['PATCH', '/users/USER', { properties: { plan: 'pro' } }],
  ['POST', '/cohorts', { name: 'c', criteria: { sessions: { gte: 1 } } }],
  ['POST', '/webhooks', { url: 'https://h.example.com', events: ['job.completed'] }],
  ['PATCH', '/webhooks/WEBHOOK', { url: 'https://h.example.com/moved', events: ['cohort.changed'], status: 'paused' }],
  ['POST', '/api-keys', { name: 'k', scopes: ['events:write'] }],
  ['POST', '/analytics/reports', { name: 'r', type: 'friction', schedule: 'daily', recipients: ['a@example.com'] }],
  [
    'POST',
    '/analytics/export/warehouse',
    { destination: 'duckdb', credentials: { database: 'd' }, tables: ['events'] },
  ],
  ['POST', '/events', { user_id: 'u', event: 'e' }],
  ['PUT', '/settings/analytics', { session: { gapMs: 600_000 }, weights: { idle: 0.1 } }],
  ['POST', '/events/batch', { events: [{ user_id: 'u', event: 'e' }] }],
];

describe('write endpoints under malformed input (property-based)', () => {
  let api: RunningApi;
  let projectId: string;
  let key: string;
  let jobId: string;
  let webhookId: string;

  before(async () => {
    api = await startTestApi();
    const project = await newProject(['admin']);
    projectId = project.projectId;
    key = project.keys[0]!;
    await services().db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 1000000 where project_id = $1`,
      [projectId],
    );
    jobId = (
      await call<{ id: string }>(api, 'POST', '/jobs', { key, json: { name: 'fuzz target', goal: 'fuzz_goal' } })
    ).body.id;
    await call(api, 'POST', '/users/identify', { key, json: { user_id: 'fuzz-user' } });
    webhookId = (
      await call<{ id: string }>(api, 'POST', '/webhooks', {
        key,
        json: { url: 'https://h.example.com/fuzz', events: ['job.completed'] },
      })
    ).body.id;
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  for (const [method, template, base] of endpoints) {
    it(`${method} ${template}: a 4xx with the error body and no row changed, never a 5xx`, async () => {
      const path = template.replace('JOB', jobId).replace('USER', 'fuzz-user').replace('WEBHOOK', webhookId);
      await fc.assert(
        fc.asyncProperty(fc.oneof(hostile, mutated(base)), async (body) => {
          const before = await snapshot(projectId);
          const text = JSON.stringify(body) ?? 'undefined';
          const reply = await call<{ error?: { code: string; message: string; details: object } }>(api, method, path, {
            key,
            body: text,
            headers: { 'Content-Type': 'application/json' },
          });
          assert.ok(reply.status < 500, `${reply.status} for ${text.slice(0, 200)}`);
          if (reply.status >= 400) {
            assert.equal(typeof reply.body.error?.code, 'string');
            assert.equal(typeof reply.body.error?.message, 'string');
            assert.equal(typeof reply.body.error?.details, 'object');
            assert.deepEqual(await snapshot(projectId), before, `rows changed by a refused ${text.slice(0, 200)}`);
          }
        }),
        { numRuns: 60, seed: 20261121 },
      );
    });
  }
});
