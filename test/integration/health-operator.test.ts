import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { call, closeServices, errorOf, newProject, services, startTestApi, waitFor } from './helpers.js';

interface Details {
  status: string;
  checks: Record<string, { status: string; latency_ms: number }>;
  event_loop: { p99_ms: number };
  waits: Record<string, { count: number; p99_ms: number; max_ms: number }>;
}

describe('GET /v1/health/details: the operator only', function () {
  this.timeout(60_000);
  after(() => closeServices());

  it('without PI_OPERATOR_TOKEN, is served to nobody: project keys (admin included) get 404', async () => {
    const api = await startTestApi();
    try {
      const { keys } = await newProject(['admin'], ['analytics:read']);
      for (const key of [keys[0], keys[1], undefined]) {
        const reply = await call(api, 'GET', '/health/details', { key });
        assert.equal(reply.status, 404, `key ${key ? 'given' : 'none'}`);
        assert.match(errorOf(reply).message, /operator only.*PI_OPERATOR_TOKEN/);
      }
      assert.equal((await call(api, 'GET', '/health')).status, 200, 'the public health answer stays');
    } finally {
      await api.close();
    }
  });

  describe('with PI_OPERATOR_TOKEN', () => {
    const token = crypto.randomBytes(32).toString('hex');
    let api: RunningApi;
    before(async () => {
      api = await startApi({ ...loadConfig(), port: 0, operatorToken: token }, services());
    });
    after(() => api.close());

    it('answers the operator; a project admin key gets 403 and restarts none of the shared histograms', async () => {
      const { keys } = await newProject(['admin'], ['events:write']);
      const [admin, writer] = keys as [string, string];
      const details = () => call<Details>(api, 'GET', '/health/details', { key: token });
      assert.equal((await details()).status, 200); // the waits count from here

      const posted = await call(api, 'POST', '/events', { key: writer, json: { user_id: 'u-op', event: 'waited' } });
      assert.equal(posted.status, 202);
      // A project admin, then a wrong token of the right shape: refused before anything is read or restarted.
      for (const key of [admin, crypto.randomBytes(32).toString('hex')]) {
        const refused = await call(api, 'GET', '/health/details', { key });
        assert.equal(refused.status, 403);
        assert.equal(errorOf(refused).code, 'forbidden');
        assert.match(
          errorOf(refused).message,
          /operator's \(PI_OPERATOR_TOKEN\); project API keys, admin ones included/,
        );
        assert.equal(JSON.stringify(refused.body).includes('latency_ms'), false);
      }
      const missing = await call(api, 'GET', '/health/details');
      assert.equal(missing.status, 401);
      assert.equal(missing.headers.get('www-authenticate'), 'Bearer');

      const seen = await details();
      assert.equal(seen.status, 200);
      assert.equal(seen.body.status, 'ok');
      assert.deepEqual(Object.keys(seen.body.checks).sort(), ['kafka', 'postgres', 'registry']);
      for (const check of Object.values(seen.body.checks)) assert.equal(check.status, 'ok');
      assert.ok(seen.body.event_loop.p99_ms >= 0);
      // The event's waits are still there: the refused requests restarted nothing. The event's request
      // waited on its key, users' keys and Kafka; the rate counters settle in the background (docs/adr/0005).
      const { waits } = seen.body;
      assert.deepEqual(Object.keys(waits), ['auth', 'rate_limit', 'user_keys', 'kafka']);
      for (const name of ['auth', 'user_keys', 'kafka']) assert.ok(waits[name]!.count >= 1, `${name} recorded`);
      assert.ok(waits.kafka!.max_ms > 0 && waits.kafka!.p99_ms <= waits.kafka!.max_ms);
      // The operator's own read restarts them.
      assert.equal((await details()).body.waits.kafka!.count, 0);
      await waitFor('a settle of the rate counters', async () => (await details()).body.waits.rate_limit!.count >= 1);
    });
  });
});
