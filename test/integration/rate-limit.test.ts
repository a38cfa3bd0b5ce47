import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { RequestTallies, settleCounts } from '../../api/rate-limit.js';
import type { RunningApi } from '../../api/server.js';
import type { Pool } from '../../lib/db.js';
import { call, closeServices, errorOf, newProject, services, startTestApi } from './helpers.js';

describe('rate limits', () => {
  let api: RunningApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  it('exhausts a small tier: consistent headers, then 429 with Retry-After and the error body', async () => {
    const { projectId, keys } = await newProject(['admin'], ['analytics:read']);
    await services().db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 5 where project_id = $1`,
      [projectId],
    );
    const [admin, reader] = keys as [string, string];
    const seen: { status: number; limit: string | null; remaining: string | null; reset: string | null }[] = [];
    // Different keys, endpoints and outcomes of one project share one counter.
    const requests = [
      () => call(api, 'GET', '/jobs', { key: admin }),
      () => call(api, 'GET', '/jobs', { key: reader }), // 403 counts too
      () => call(api, 'POST', '/jobs', { key: admin, json: {} }), // 400 counts too
      () => call(api, 'GET', '/webhooks', { key: admin }),
      () => call(api, 'GET', '/api-keys', { key: admin }),
      () => call(api, 'GET', '/jobs', { key: admin }),
      () => call(api, 'POST', '/events', { key: admin, json: { user_id: 'u', event: 'e' } }),
    ];
    for (const request of requests) {
      const reply = await request();
      seen.push({
        status: reply.status,
        limit: reply.headers.get('x-ratelimit-limit'),
        remaining: reply.headers.get('x-ratelimit-remaining'),
        reset: reply.headers.get('x-ratelimit-reset'),
      });
      if (reply.status === 429) {
        assert.equal(errorOf(reply).code, 'rate_limited');
        const retryAfter = Number(reply.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
      }
    }
    assert.deepEqual(
      seen.map((s) => [s.status, s.limit, s.remaining]),
      [
        [200, '5', '4'],
        [403, '4', '2'], // a key without admin may use all but a reserve of the hour
        [400, '5', '2'],
        [200, '5', '1'],
        [200, '5', '0'],
        [429, '5', '0'],
        [429, '5', '0'],
      ],
    );
    const resets = new Set(seen.map((s) => s.reset));
    assert.equal(resets.size, 1, 'one window');
    const reset = Number([...resets][0]);
    const now = Date.now() / 1000;
    assert.ok(reset > now && reset <= now + 3600 && reset % 3600 === 0, `reset ${reset} is the end of this hour`);
  });

  it('gives standard and pro tiers their limits, and none to unauthenticated calls', async () => {
    const standard = await newProject(['admin']);
    const pro = await newProject(['admin']);
    await services().db.query(`update projects set rate_tier = 'pro' where project_id = $1`, [pro.projectId]);
    const s = await call(api, 'GET', '/jobs', { key: standard.keys[0] });
    const p = await call(api, 'GET', '/jobs', { key: pro.keys[0] });
    assert.deepEqual([s.headers.get('x-ratelimit-limit'), s.headers.get('x-ratelimit-remaining')], ['1000', '999']);
    assert.deepEqual([p.headers.get('x-ratelimit-limit'), p.headers.get('x-ratelimit-remaining')], ['10000', '9999']);
    const anonymous = await call(api, 'GET', '/jobs');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('x-ratelimit-limit'), null);
  });

  it('settles two processes on one row: each admits from what it last settled, every admitted request counted', async () => {
    // The same pool, counting its statements: one upsert per request on a busy project's row was
    // the API's largest Postgres cost at 5k events/s (docs/performance.md).
    let statements = 0;
    const db = services().db;
    const counting = Object.create(db, {
      query: { value: (...args: Parameters<Pool['query']>) => (statements++, db.query(...args)) },
    }) as Pool;
    const [first, second] = [0, 1].map(() => new RequestTallies((counts) => settleCounts(counting, counts))) as [
      RequestTallies,
      RequestTallies,
    ];
    const projectId = crypto.randomUUID();
    const window = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const hourBefore = new Date(window.getTime() - 3_600_000);
    await db.query('insert into rate_limit_windows (project_id, window_start, requests) values ($1, $2, 42)', [
      projectId,
      hourBefore,
    ]);
    const requests = (p: RequestTallies, n: number) => Array.from({ length: n }, () => p.admit(projectId, window, 200));
    // 300 requests against a cap of 200 before either process settled: each knows only its own
    // 150, so all pass (the bounded over-admission of docs/adr/0005).
    const counted = [...requests(first, 150), ...requests(second, 150)];
    assert.equal(counted.filter((n) => typeof n === 'number').length, 300);
    await first.settle();
    await second.settle();
    assert.equal(statements, 2, 'one statement per process');
    const { rows } = await db.query<{ window_start: Date; requests: number }>(
      'select window_start, requests from rate_limit_windows where project_id = $1',
      [projectId],
    );
    assert.deepEqual(
      rows,
      [{ window_start: window, requests: 300 }],
      'every admitted request, the hour before dropped',
    );
    // Each process knows the shared count as of its own settle: the second saw all 300 and
    // refuses; the first saw its 150 and admits until its next settle answers.
    assert.deepEqual(requests(second, 1), ['over_limit']);
    assert.deepEqual(requests(first, 1), [151]);
    await first.settle();
    assert.deepEqual(requests(first, 1), ['over_limit']);
  });

  it('gives concurrent HTTP requests of one project distinct counts up to the limit', async () => {
    const { projectId, keys } = await newProject(['admin']);
    await services().db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 40 where project_id = $1`,
      [projectId],
    );
    const replies = await Promise.all(Array.from({ length: 60 }, () => call(api, 'GET', '/jobs', { key: keys[0] })));
    const ok = replies.filter((r) => r.status === 200);
    assert.equal(ok.length, 40);
    assert.equal(replies.filter((r) => r.status === 429).length, 20);
    const remaining = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 40 }, (_, i) => i),
    );
  });
});
