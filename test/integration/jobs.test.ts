import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, errorOf, newProject, startTestApi } from './helpers.js';

describe('jobs API', () => {
  let api: RunningApi;
  let admin: string;
  let writer: string;

  before(async () => {
    api = await startTestApi();
    const project = await newProject(['admin'], ['events:write']);
    [admin, writer] = project.keys as [string, string];
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  const sample = {
    name: 'Complete Profile Setup',
    description: 'Guide users to complete their profile',
    goal: 'profile_completed',
    priority: 'high',
    target_audience: { type: 'segment', criteria: "plan == 'pro' && mrr >= 100" },
    automation: { level: 'guided_shortcuts', requires_confirmation: true },
  };

  it('creates a job as draft and answers id, name, status, created_at', async () => {
    const reply = await call<Record<string, string>>(api, 'POST', '/jobs', { key: admin, json: sample });
    assert.equal(reply.status, 201);
    assert.deepEqual(Object.keys(reply.body).sort(), ['created_at', 'id', 'name', 'status']);
    assert.equal(reply.body.status, 'draft');
    assert.equal(reply.body.name, sample.name);
    assert.match(reply.body.id!, /^job_[0-9a-f]{16}$/);
    assert.ok(!Number.isNaN(Date.parse(reply.body.created_at!)));
    assert.equal(reply.headers.get('location'), `/v1/jobs/${reply.body.id}`);

    const full = await call<Record<string, unknown>>(api, 'GET', `/jobs/${reply.body.id}`, { key: admin });
    assert.equal(full.status, 200);
    assert.deepEqual(
      { ...full.body, id: undefined, created_at: undefined, updated_at: undefined },
      {
        ...sample,
        id: undefined,
        status: 'draft',
        metrics: { completion_rate: 0, avg_time_to_completion: 0, users_targeted: 0, users_completed: 0 },
        created_at: undefined,
        updated_at: undefined,
      },
    );
  });

  it('refuses a job without a name, naming the field', async () => {
    const reply = await call(api, 'POST', '/jobs', { key: admin, json: { goal: 'x' } });
    assert.equal(reply.status, 400);
    assert.deepEqual(errorOf(reply), {
      code: 'invalid_request',
      message: 'name is required.',
      details: { field: 'name', reason: 'required' },
    });
  });

  it('type-checks every other field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 5 }, 'name', 'invalid_type'],
      [{ name: 'a', priority: 'urgent' }, 'priority', 'invalid_value'],
      [{ name: 'a', automation: { level: 'x' } }, 'automation.level', 'invalid_value'],
      [{ name: 'a', automation: { requires_confirmation: 'yes' } }, 'automation.requires_confirmation', 'invalid_type'],
      [{ name: 'a', target_audience: { type: 'segment' } }, 'target_audience.criteria', 'required'],
      [
        { name: 'a', target_audience: { type: 'segment', criteria: "plan == 'pro' &&" } },
        'target_audience.criteria',
        'invalid_expression',
      ],
      [
        { name: 'a', target_audience: { type: 'segment', criteria: 'process.exit(1)' } },
        'target_audience.criteria',
        'invalid_expression',
      ],
      [{ name: 'a', description: ['x'] }, 'description', 'invalid_type'],
      [{ name: 'a', status: 'active' }, 'status', 'unknown_field'],
    ];
    for (const [body, field, reason] of cases) {
      const reply = await call(api, 'POST', '/jobs', { key: admin, json: body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.deepEqual(
        { field: errorOf(reply).details.field, reason: errorOf(reply).details.reason },
        { field, reason },
        JSON.stringify(body),
      );
    }
  });

  it('updates any subset, moves status along the state machine and answers 409 to an illegal move', async () => {
    const { body: created } = await call<{ id: string }>(api, 'POST', '/jobs', {
      key: admin,
      json: { name: 'J', goal: 'j_done' },
    });
    const path = `/jobs/${created.id}`;

    const activate = await call<Record<string, unknown>>(api, 'PATCH', path, {
      key: admin,
      json: { status: 'active', priority: 'medium' },
    });
    assert.equal(activate.status, 200);
    assert.equal(activate.body.status, 'active');
    assert.equal(activate.body.priority, 'medium');
    assert.equal(activate.body.name, 'J');
    assert.ok((activate.body.updated_at as string) >= (activate.body.created_at as string));

    for (const [status, code] of [
      ['paused', 200],
      ['draft', 409],
      ['active', 200],
      ['completed', 200],
      ['paused', 409],
      ['archived', 200],
      ['completed', 409],
      ['active', 200],
    ] as const) {
      const reply = await call(api, 'PATCH', path, { key: admin, json: { status } });
      assert.equal(reply.status, code, `→ ${status}`);
      if (code === 409) {
        assert.equal(errorOf(reply).code, 'conflict');
        assert.equal(errorOf(reply).details.to, status);
      }
    }
    const rejected = await call(api, 'PATCH', path, { key: admin, json: { status: 'draft', name: 'renamed' } });
    assert.equal(rejected.status, 409);
    const after409 = await call<{ name: string; status: string }>(api, 'GET', path, { key: admin });
    assert.equal(after409.body.name, 'J', 'a refused update changes nothing');

    const empty = await call(api, 'PATCH', path, { key: admin, json: {} });
    assert.equal(empty.status, 400);
    const nul = await call(api, 'GET', '/jobs/%00', { key: admin });
    assert.deepEqual([nul.status, errorOf(nul).details.reason], [400, 'invalid_characters']);
    const missing = await call(api, 'PATCH', '/jobs/job_0000000000000000', { key: admin, json: { name: 'x' } });
    assert.equal(missing.status, 404);
  });

  it('takes back a job as it was read (read-modify-write): read-only fields ignored, nulls clear', async () => {
    const { body: created } = await call<{ id: string }>(api, 'POST', '/jobs', { key: admin, json: sample });
    const path = `/jobs/${created.id}`;
    const { body: read } = await call<Record<string, unknown>>(api, 'GET', path, { key: admin });
    const written = await call<Record<string, unknown>>(api, 'PATCH', path, {
      key: admin,
      json: { ...read, name: 'Renamed', description: null, automation: null },
    });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.deepEqual(
      { ...written.body, updated_at: read.updated_at },
      { ...read, name: 'Renamed', description: null, automation: null },
    );
    const other = await call(api, 'PATCH', path, { key: admin, json: { ...read, id: 'job_0000000000000000' } });
    assert.deepEqual([other.status, errorOf(other).details], [400, { field: 'id', reason: 'invalid_value' }]);
    const typo = await call(api, 'PATCH', path, { key: admin, json: { ...read, nmae: 'x' } });
    assert.deepEqual([typo.status, errorOf(typo).details.reason], [400, 'unknown_field']);
  });

  it('makes a job active only with a goal, the event that completes it', async () => {
    const { body: created } = await call<{ id: string }>(api, 'POST', '/jobs', {
      key: admin,
      json: { name: 'no goal' },
    });
    const path = `/jobs/${created.id}`;
    const refused = await call(api, 'PATCH', path, { key: admin, json: { status: 'active' } });
    assert.deepEqual([refused.status, errorOf(refused).details], [400, { field: 'goal', reason: 'required' }]);
    const withGoal = await call<{ status: string }>(api, 'PATCH', path, {
      key: admin,
      json: { status: 'active', goal: 'setup_done' },
    });
    assert.deepEqual([withGoal.status, withGoal.body.status], [200, 'active']);
    const cleared = await call(api, 'PATCH', path, { key: admin, json: { goal: null } });
    assert.deepEqual([cleared.status, errorOf(cleared).details.field], [400, 'goal']);
  });

  it('deletes a job, then answers 404', async () => {
    const { body: created } = await call<{ id: string }>(api, 'POST', '/jobs', { key: admin, json: { name: 'gone' } });
    const del = await call(api, 'DELETE', `/jobs/${created.id}`, { key: admin });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { id: created.id, deleted: true });
    assert.equal((await call(api, 'GET', `/jobs/${created.id}`, { key: admin })).status, 404);
    assert.equal((await call(api, 'DELETE', `/jobs/${created.id}`, { key: admin })).status, 404);
  });

  it('lists jobs newest first with paging and the list view fields', async () => {
    const project = await newProject(['admin']);
    const key = project.keys[0]!;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await call<{ id: string }>(api, 'POST', '/jobs', { key, json: { name: `job ${i}`, priority: 'low' } })).body
          .id,
      );
    }
    const page1 = await call<{ jobs: Record<string, unknown>[]; total: number; page: number; per_page: number }>(
      api,
      'GET',
      '/jobs?per_page=2',
      { key },
    );
    assert.equal(page1.status, 200);
    assert.equal(page1.body.total, 5);
    assert.equal(page1.body.page, 1);
    assert.equal(page1.body.per_page, 2);
    assert.deepEqual(
      page1.body.jobs.map((j) => j.id),
      [ids[4], ids[3]],
    );
    assert.deepEqual(Object.keys(page1.body.jobs[0]!).sort(), [
      'created_at',
      'id',
      'metrics',
      'name',
      'priority',
      'status',
    ]);
    assert.deepEqual(page1.body.jobs[0]!.metrics, { completion_rate: 0, users_targeted: 0, users_completed: 0 });
    const page3 = await call<{ jobs: { id: string }[]; total: number }>(api, 'GET', '/jobs?per_page=2&page=3', { key });
    assert.deepEqual(
      page3.body.jobs.map((j) => j.id),
      [ids[0]],
    );
    const beyond = await call<{ jobs: unknown[]; total: number }>(api, 'GET', '/jobs?page=9', { key });
    assert.deepEqual([beyond.body.jobs.length, beyond.body.total], [0, 5]);
    await call(api, 'PATCH', `/jobs/${ids[2]}`, { key, json: { status: 'active', goal: 'listed_goal' } });
    const active = await call<{ jobs: { id: string }[]; total: number }>(api, 'GET', '/jobs?status=active', { key });
    assert.deepEqual([active.body.total, active.body.jobs[0]?.id], [1, ids[2]]);

    for (const query of ['per_page=1001', 'per_page=0', 'page=0', 'page=x', 'status=gone']) {
      const bad = await call(api, 'GET', `/jobs?${query}`, { key });
      assert.equal(bad.status, 400, query);
      assert.equal(errorOf(bad).details.field, query.split('=')[0]);
    }
  });

  it('needs the admin scope', async () => {
    const reply = await call(api, 'GET', '/jobs', { key: writer });
    assert.equal(reply.status, 403);
    assert.equal(errorOf(reply).details.required_scope, 'admin');
  });
});
