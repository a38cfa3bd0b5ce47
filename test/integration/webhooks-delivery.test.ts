import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { type RunningSender, startWebhookSender } from '../../workers/webhooks/sender.js';
import {
  call,
  closeServices,
  errorOf,
  isolateTopics,
  newProject,
  services,
  startRoleProcess,
  stopProcess,
  waitFor,
} from './helpers.js';
import { type Responder, startReceiver as openReceiver, testPki, verifyStandardWebhook } from './https-receiver.js';
import { RETRY_BASE_MS, completeJob, senderServices } from './webhook-fixtures.js';

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  attempt_log: { attempt: number; status: number | null; error: string | null; retry_in_ms: number | null }[];
}

describe('webhook deliveries: signing, retries, give-ups, redelivery, SSRF guard, crash safety', function () {
  this.timeout(90_000);
  let api: RunningApi;
  let key: string;
  let projectId: string;
  const senders: RunningSender[] = [];
  // A test's receivers and sender processes go after it, passed or failed: left open, they would
  // keep the run from ending.
  const receivers: { close(): Promise<void> }[] = [];
  const children: ChildProcess[] = [];

  before(async () => {
    await isolateTopics();
    api = await startApi({ ...loadConfig(), port: 0, webhookAllowHosts: ['localhost'] }, services());
    const project = await newProject(['admin']);
    [projectId, key] = [project.projectId, project.keys[0]!];
  });

  // Each test's receiver is gone after it: so are its subscription and what was queued for it.
  // A sender may be recording an attempt meanwhile: a deadlock between the two is retried.
  afterEach(async () => {
    await Promise.all(children.splice(0).map(stopProcess));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    for (let attempt = 1; ; attempt++) {
      try {
        await services().db.query('delete from webhook_subscriptions where project_id = $1', [projectId]);
        await services().db.query('delete from webhook_deliveries where project_id = $1', [projectId]);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
      }
    }
  });

  after(async () => {
    await Promise.all(senders.map((s) => s.stop()));
    await api.close();
    await closeServices();
  });

  async function startReceiver(respond?: Responder) {
    const receiver = await openReceiver(respond);
    receivers.push(receiver);
    return receiver;
  }

  async function subscribe(url: string, events = ['job.completed']) {
    const reply = await call<{ id: string; secret: string }>(api, 'POST', '/webhooks', { key, json: { url, events } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body;
  }

  const complete = (userId: string) => completeJob(projectId, userId);

  async function deliveryOf(
    path: string,
    receiver: { received: { path: string; headers: Record<string, unknown> }[] },
  ) {
    const id = receiver.received.find((r) => r.path === path)!.headers['webhook-id'] as string;
    return (await call<Delivery>(api, 'GET', `/webhooks/deliveries/${id}`, { key })).body;
  }

  async function sender(allow?: string[]) {
    const s = await startWebhookSender(senderServices(allow));
    senders.push(s);
    return s;
  }

  it('signs a job.completed delivery so that a Standard Webhooks verifier accepts it', async () => {
    const receiver = await startReceiver();
    const { secret } = await subscribe(receiver.url('/signed'));
    await sender();
    const jobId = await complete('u-signed');
    const got = await waitFor('the delivery', () => receiver.received.find((r) => r.path === '/signed'));
    assert.ok(verifyStandardWebhook(secret, got.headers, got.body), 'signature verifies');
    assert.ok(!verifyStandardWebhook(secret, got.headers, got.body.replace('u-signed', 'u-other')), 'tamper detected');
    assert.match(String(got.headers['webhook-id']), /^msg_[0-9a-f]{32}$/);
    assert.equal(got.headers['content-type'], 'application/json');
    const payload = JSON.parse(got.body) as { event: string; data: Record<string, unknown>; timestamp: string };
    assert.equal(payload.event, 'job.completed');
    assert.deepEqual(payload.data, { job_id: jobId, user_id: 'u-signed', completed_at: '2026-11-20T10:00:00.000Z' });
    assert.match(payload.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await waitFor('status succeeded', async () => (await deliveryOf('/signed', receiver)).status === 'succeeded');
  });

  it('retries a failing endpoint with growing gaps and stops at the first 2xx', async () => {
    const receiver = await startReceiver(({ n }) => ({ status: n <= 2 ? 503 : 200 }));
    await subscribe(receiver.url('/flaky'));
    await complete('u-flaky');
    await waitFor('three attempts', () => receiver.received.length === 3 && receiver.received, 20_000);
    const delivery = await waitFor('succeeded', async () => {
      const d = await deliveryOf('/flaky', receiver);
      return d.status === 'succeeded' && d;
    });
    assert.deepEqual(
      receiver.received.map((r) => r.status),
      [503, 503, 200],
    );
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1, 'one webhook-id');
    assert.equal(delivery.attempts, 3);
    assert.deepEqual(
      delivery.attempt_log.map((x) => x.status),
      [503, 503, 200],
    );
    // The schedule the sender chose: base·2ⁿ⁻¹ ±20 %, growing. Arrival times are judged only as
    // lower bounds, since a loaded machine can only add to the wait.
    const [first, second] = delivery.attempt_log.map((x) => x.retry_in_ms) as [number, number, null];
    assert.ok(first >= RETRY_BASE_MS * 0.8 && first <= RETRY_BASE_MS * 1.2, `first retry after ${first} ms`);
    assert.ok(second >= RETRY_BASE_MS * 1.6 && second <= RETRY_BASE_MS * 2.4, `second retry after ${second} ms`);
    assert.equal(delivery.attempt_log[2]!.retry_in_ms, null);
    const [a, b, c] = receiver.received.map((r) => r.at) as [number, number, number];
    assert.ok(b - a >= first * 0.95, `first gap ${b - a} ms, scheduled ${first} ms`);
    assert.ok(c - b >= second * 0.95, `second gap ${c - b} ms, scheduled ${second} ms`);
    // Marker: a later delivery to the same endpoint, claimed from the outbox after the success.
    // A retry of the first would be claimed there too, and the first is no longer pending there.
    await complete('u-flaky-later');
    await waitFor('the later delivery', () => receiver.received.length === 4);
    const firstId = receiver.received[0]!.headers['webhook-id'];
    assert.deepEqual(
      receiver.received.map((r) => r.headers['webhook-id'] === firstId),
      [true, true, true, false],
      'nothing after the success',
    );
  });

  it('gives up after 1 + 3 attempts, records it, and redelivers with the same webhook-id', async () => {
    let healthy = false;
    const receiver = await startReceiver(() => ({ status: healthy ? 200 : 500 }));
    await subscribe(receiver.url('/down'));
    await complete('u-down');
    const failed = await waitFor(
      'the give-up',
      async () => {
        const first = receiver.received[0];
        if (!first) return false;
        const d = await deliveryOf('/down', receiver);
        return d.status === 'failed' && d;
      },
      30_000,
    );
    assert.equal(receiver.received.length, 4);
    assert.equal(failed.attempts, 4);
    assert.equal(failed.last_status, 500);
    assert.equal(failed.last_error, 'HTTP 500');
    const listed = await call<{ deliveries: { id: string }[] }>(api, 'GET', '/webhooks/deliveries?status=failed', {
      key,
    });
    assert.ok(listed.body.deliveries.some((d) => d.id === failed.id));

    healthy = true;
    const again = await call<Delivery>(api, 'POST', `/webhooks/deliveries/${failed.id}/redeliver`, { key });
    assert.equal(again.status, 202);
    assert.equal(again.body.status, 'pending');
    await waitFor('the redelivery', () => receiver.received.length === 5);
    assert.equal(receiver.received[4]!.headers['webhook-id'], failed.id);
    await waitFor('succeeded', async () => (await deliveryOf('/down', receiver)).status === 'succeeded');
    const twice = await call(api, 'POST', `/webhooks/deliveries/${failed.id}/redeliver`, { key });
    assert.equal(twice.status, 202, 'a finished delivery can be sent again');
    assert.equal(
      (await call(api, 'POST', '/webhooks/deliveries/msg_nope/redeliver', { key })).status,
      404,
      'unknown delivery',
    );
  });

  it('treats an answer slower than 5 s as failed and retries it with the same webhook-id', async () => {
    const receiver = await startReceiver(({ n }) => ({ status: 200, delayMs: n === 1 ? 6000 : 0 }));
    await subscribe(receiver.url('/slow'));
    await complete('u-slow');
    await waitFor('the retry', () => receiver.received.length === 2, 20_000);
    assert.equal(receiver.received[0]!.headers['webhook-id'], receiver.received[1]!.headers['webhook-id']);
    const d = await waitFor('succeeded', async () => {
      const x = await deliveryOf('/slow', receiver);
      return x.status === 'succeeded' && x;
    });
    assert.match(d.attempt_log[0]!.error ?? '', /timeout/i);
  });

  it('refuses private and loopback targets unless allow-listed', async () => {
    for (const url of ['https://10.0.0.8/h', 'https://127.0.0.1/h', 'https://[::1]/h', 'https://169.254.169.254/x']) {
      const reply = await call(api, 'POST', '/webhooks', { key, json: { url, events: ['job.completed'] } });
      assert.equal(reply.status, 400, url);
      assert.equal(errorOf(reply).details.reason, 'forbidden_target', url);
    }
    assert.equal(
      errorOf(
        await call(api, 'POST', '/webhooks', {
          key,
          json: { url: 'http://a.example.com/h', events: ['job.completed'] },
        }),
      ).details.reason,
      'https_required',
    );
    // The name is allowed by the API (allow-listed there), but a sender without the allow-list
    // resolves it to 127.0.0.1 and refuses to connect.
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    const receiver = await startReceiver();
    await subscribe(receiver.url('/guarded'));
    const strict = await sender([]);
    await complete('u-guarded');
    // The sender's own wake-up may be the one making the attempt: wait for its outcome.
    const refused = await waitFor('the refused attempt', async () => {
      const { rows } = await services().db.query<{ delivery_id: string; error: string | null }>(
        `select a.delivery_id, a.error from webhook_attempts a join webhook_deliveries d using (project_id, delivery_id)
         join webhook_subscriptions s on s.project_id = d.project_id and s.webhook_id = d.webhook_id
         where s.url like '%/guarded' and a.error is not null`,
      );
      return rows[0]?.error ? { id: rows[0].delivery_id, error: rows[0].error } : undefined;
    });
    assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
    assert.match(refused.error, /127\.0\.0\.1.*private or loopback/);
    // The customer reads what failed, never the address the sender resolved the name to.
    const shown = (await call<Delivery>(api, 'GET', `/webhooks/deliveries/${refused.id}`, { key })).body;
    const errors = [shown.last_error, ...shown.attempt_log.map((a) => a.error)].filter((e) => e !== null);
    assert.ok(errors.length > 0);
    for (const error of errors) {
      assert.match(error, /resolves to <address>, a private or loopback address/);
      assert.doesNotMatch(error, /127\.0\.0\.1/);
    }
    await strict.stop();
    senders.splice(senders.indexOf(strict), 1);
    await services().db.query(`delete from webhook_subscriptions where url like '%/guarded'`);
  });

  it('shares the outbox between senders without sending anything twice', async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 50 }));
    await subscribe(receiver.url('/shared'));
    await Promise.all([sender(), sender(), sender()]);
    for (let i = 0; i < 30; i++) await complete(`u-shared-${i}`);
    await waitFor('30 deliveries', () => receiver.received.length >= 30, 30_000);
    // Marker: nothing is pending and every attempt the senders logged has its answer recorded. A
    // claim logs its attempt before the request, so every request made has reached the receiver.
    await waitFor('every logged attempt answered', async () => {
      const { rows } = await services().db.query<{ open: number; pending: number }>(
        `select count(*) filter (where a.attempt is not null and a.duration_ms is null)::int as open,
                count(*) filter (where d.status = 'pending')::int as pending
         from webhook_deliveries d
         join webhook_subscriptions s on s.project_id = d.project_id and s.webhook_id = d.webhook_id
         left join webhook_attempts a on a.project_id = d.project_id and a.delivery_id = d.delivery_id
         where s.url like '%/shared'`,
      );
      return rows[0]!.open === 0 && rows[0]!.pending === 0;
    });
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    assert.equal(ids.length, 30, 'exactly one request per delivery');
    assert.equal(new Set(ids).size, 30);
  });

  it('loses nothing when the sender process is killed mid-delivery; duplicates keep their webhook-id', async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 1500 }));
    await subscribe(receiver.url('/crash'));
    for (let i = 0; i < 20; i++) await complete(`u-crash-${i}`);
    const run = (): ChildProcess => {
      const child = startRoleProcess('workers', 'webhook-sender', {
        WEBHOOK_CA_FILE: testPki().caFile,
        WEBHOOK_ALLOW_HOSTS: 'localhost',
        PI_WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
        PI_WEBHOOK_LEASE_MS: '6000',
        PI_POLL_INTERVAL_MS: '500',
      });
      children.push(child);
      return child;
    };
    const first = run();
    await waitFor('requests in flight', () => receiver.received.length > 0, 30_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = run();
    const done = async () => {
      const { rows } = await services().db.query<{ pending: number }>(
        `select count(*) filter (where d.status <> 'succeeded')::int as pending from webhook_deliveries d
         join webhook_subscriptions s on s.project_id = d.project_id and s.webhook_id = d.webhook_id
         where s.url like '%/crash'`,
      );
      return rows[0]!.pending === 0;
    };
    await waitFor('every delivery succeeded', done, 60_000);
    await stopProcess(second);
    const byId = new Map<string, string[]>();
    for (const r of receiver.received) {
      const body = JSON.parse(r.body) as { data: { user_id: string } };
      const id = String(r.headers['webhook-id']);
      byId.set(id, [...(byId.get(id) ?? []), body.data.user_id]);
    }
    assert.equal(byId.size, 20, 'every delivery arrived');
    for (const [id, users] of byId) assert.equal(new Set(users).size, 1, `${id}: duplicates are the same delivery`);
  });
});
