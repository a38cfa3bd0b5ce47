import assert from 'node:assert/strict';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { type RunningSender, startWebhookSender } from '../../workers/webhooks/sender.js';
import { call, closeServices, count, errorOf, newProject, services, waitFor } from './helpers.js';
import { type Responder, startReceiver as openReceiver, verifyStandardWebhook } from './https-receiver.js';
import { completeJob, senderServices } from './webhook-fixtures.js';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: 'active' | 'paused';
  created_at: string;
  updated_at: string;
}
interface Delivery {
  id: string;
  webhook_id: string | null;
  target: string;
  event: string;
  status: string;
  attempts: number;
  payload: unknown;
  attempt_log: { attempt: number; status: number | null }[];
}

/** GET, PATCH (url, events, pause and resume) and the test delivery of one subscription. */
describe('webhook subscriptions: read one, change, pause and resume, test delivery', function () {
  this.timeout(60_000);
  let api: RunningApi;
  let key: string;
  let other: string;
  let projectId: string;
  const senders: RunningSender[] = [];
  const receivers: { close(): Promise<void> }[] = [];

  before(async () => {
    api = await startApi({ ...loadConfig(), port: 0, webhookAllowHosts: ['localhost'] }, services());
    const project = await newProject(['admin']);
    [projectId, key] = [project.projectId, project.keys[0]!];
    other = (await newProject(['admin'])).keys[0]!;
  });

  // A sender may be recording an attempt meanwhile: a deadlock between the two is retried.
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
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
    await api.close();
    await closeServices();
  });

  async function startReceiver(respond?: Responder) {
    const receiver = await openReceiver(respond);
    receivers.push(receiver);
    return receiver;
  }

  async function sender() {
    const s = await startWebhookSender(senderServices());
    senders.push(s);
    return s;
  }

  async function subscribe(url: string, events = ['job.completed']) {
    const reply = await call<Webhook & { secret: string }>(api, 'POST', '/webhooks', { key, json: { url, events } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body;
  }

  const patch = (id: string, json: unknown, as = key) =>
    call<Webhook>(api, 'PATCH', `/webhooks/${id}`, { key: as, json });
  const deliveriesOf = async (webhookId: string) =>
    (
      await call<{ deliveries: Delivery[] }>(api, 'GET', `/webhooks/deliveries?webhook_id=${webhookId}&per_page=100`, {
        key,
      })
    ).body.deliveries;

  it('answers one subscription as the list shows it, and 404 for an unknown id or another project', async () => {
    const created = await subscribe('https://hooks.example.com/one', ['job.completed', 'cohort.changed']);
    const one = await call<Webhook>(api, 'GET', `/webhooks/${created.id}`, { key });
    assert.equal(one.status, 200);
    const list = await call<{ webhooks: Webhook[] }>(api, 'GET', '/webhooks', { key });
    assert.deepEqual(one.body, list.body.webhooks[0]);
    assert.deepEqual(one.body, {
      id: created.id,
      url: 'https://hooks.example.com/one',
      events: ['job.completed', 'cohort.changed'],
      status: 'active',
      created_at: created.created_at,
      updated_at: created.updated_at,
    });
    assert.equal('secret' in one.body, false, 'the secret is shown once');

    for (const [method, path, json] of [
      ['GET', `/webhooks/${created.id}`],
      ['PATCH', `/webhooks/${created.id}`, { status: 'paused' }],
      ['PATCH', `/webhooks/${created.id}`, { ...one.body, status: 'paused' }],
      ['POST', `/webhooks/${created.id}/test`],
    ] as const) {
      const reply = await call(api, method, path, { key: other, json });
      assert.equal(reply.status, 404, `${method} ${path} with another project's key`);
      assert.equal(errorOf(reply).code, 'not_found');
    }
    for (const [method, path, json] of [
      ['GET', '/webhooks/wh_unknown'],
      ['PATCH', '/webhooks/wh_unknown', { status: 'paused' }],
      ['PATCH', '/webhooks/wh_unknown', { id: 'wh_other', status: 'paused' }],
      ['POST', '/webhooks/wh_unknown/test'],
    ] as const) {
      assert.equal((await call(api, method, path, { key, json })).status, 404, `${method} ${path}`);
    }
    assert.equal(await count('select 1 from webhook_deliveries where project_id = $1', [projectId]), 0);
    assert.deepEqual((await call<Webhook>(api, 'GET', `/webhooks/${created.id}`, { key })).body, one.body);
  });

  it('changes url and events, checking a new url as at creation; a refused change changes nothing', async () => {
    const created = await subscribe('https://hooks.example.com/before');
    const changed = await patch(created.id, {
      url: 'https://hooks.example.com/after',
      events: ['user.friction_detected', 'cohort.changed'],
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(
      [changed.body.id, changed.body.url, changed.body.events, changed.body.status, changed.body.created_at],
      [
        created.id,
        'https://hooks.example.com/after',
        ['user.friction_detected', 'cohort.changed'],
        'active',
        created.created_at,
      ],
    );
    assert.ok(changed.body.updated_at >= created.updated_at);
    const eventsOnly = await patch(created.id, { events: ['job.completed'] });
    assert.equal(eventsOnly.body.url, 'https://hooks.example.com/after', 'a field left out keeps its value');

    const cases: [unknown, string, string][] = [
      [{ url: 'http://hooks.example.com/h' }, 'url', 'https_required'],
      [{ url: 'https://u:p@hooks.example.com/h' }, 'url', 'credentials_in_url'],
      [{ url: 'https://10.0.0.8/h' }, 'url', 'forbidden_target'],
      [{ url: 'https://169.254.169.254/latest' }, 'url', 'forbidden_target'],
      [{ url: 'https://[::1]/h' }, 'url', 'forbidden_target'],
      [{ url: 'not a url' }, 'url', 'invalid_format'],
      [{ events: [] }, 'events', 'min_items'],
      [{ events: ['job.exploded'] }, 'events[0]', 'invalid_value'],
      [{ status: 'stopped' }, 'status', 'invalid_value'],
      [{ secret: 'whsec_mine' }, 'secret', 'unknown_field'],
      [{ id: 'wh_another', status: 'paused' }, 'id', 'invalid_value'],
    ];
    for (const [json, field, reason] of cases) {
      const reply = await patch(created.id, json);
      assert.equal(reply.status, 400, JSON.stringify(json));
      assert.deepEqual(
        [errorOf(reply).details.field, errorOf(reply).details.reason],
        [field, reason],
        JSON.stringify(json),
      );
    }
    assert.equal((await patch(created.id, {})).status, 400, 'an empty change');
    const after = await call<Webhook>(api, 'GET', `/webhooks/${created.id}`, { key });
    assert.deepEqual(after.body, eventsOnly.body, 'refused changes changed nothing');
  });

  it('takes back a subscription as it was read (read-modify-write): read-only fields accepted and ignored', async () => {
    const created = await subscribe('https://hooks.example.com/rmw');
    const read = (await call<Webhook>(api, 'GET', `/webhooks/${created.id}`, { key })).body;
    const sent = {
      ...read,
      events: [...read.events, 'cohort.changed'],
      status: 'paused',
      created_at: '2000-01-01T00:00:00.000Z',
      updated_at: '2000-01-01T00:00:00.000Z',
    };
    const reply = await patch(created.id, sent);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.events, ['job.completed', 'cohort.changed']);
    assert.equal(reply.body.status, 'paused');
    assert.equal(reply.body.created_at, read.created_at, 'created_at is read-only');
    assert.notEqual(reply.body.updated_at, '2000-01-01T00:00:00.000Z', 'updated_at is the service’s');
    // Sent back unchanged, it is a no-op that still answers the subscription.
    const again = await patch(created.id, reply.body);
    assert.equal(again.status, 200);
    assert.deepEqual({ ...again.body, updated_at: null }, { ...reply.body, updated_at: null });
  });

  it('paused: nothing new is queued, queued deliveries are held, and resuming sends them to the new url', async () => {
    const receiver = await startReceiver();
    const hook = await subscribe(receiver.url('/before-pause'));
    // Queued while active, before any sender runs.
    const heldJob = await completeJob(projectId, 'u-held');
    const paused = await patch(hook.id, { status: 'paused' });
    assert.equal(paused.body.status, 'paused');
    // While paused, an event is not queued for it at all.
    await completeJob(projectId, 'u-while-paused');
    assert.equal(
      await count('select 1 from webhook_deliveries where project_id = $1 and webhook_id = $2', [projectId, hook.id]),
      1,
    );
    const s = await sender();
    await s.drain();
    const [held] = await deliveriesOf(hook.id);
    assert.deepEqual([held!.status, held!.attempts], ['pending', 0], 'held, not attempted');
    assert.equal(receiver.received.length, 0);

    // Moved while paused: the held delivery goes to the new address once resumed.
    assert.equal((await patch(hook.id, { url: receiver.url('/after-pause') })).status, 200);
    const resumed = await patch(hook.id, { status: 'active' });
    assert.equal(resumed.body.status, 'active');
    // The resume wakes the sender (NOTIFY); no drain() here.
    const got = await waitFor('the held delivery', () => receiver.received[0]);
    assert.equal(got.path, '/after-pause');
    assert.ok(verifyStandardWebhook(hook.secret, got.headers, got.body), 'signed');
    assert.equal(got.headers['webhook-id'], held!.id, 'the same delivery, not a new one');
    const payload = JSON.parse(got.body) as { event: string; data: { job_id: string; user_id: string } };
    assert.deepEqual([payload.event, payload.data.job_id, payload.data.user_id], ['job.completed', heldJob, 'u-held']);
    await waitFor('succeeded', async () => (await deliveriesOf(hook.id))[0]!.status === 'succeeded');

    // Active again: new events are delivered as before.
    await completeJob(projectId, 'u-after');
    await waitFor('the next delivery', () => receiver.received.length === 2);
    const users = receiver.received.map((r) => (JSON.parse(r.body) as { data: { user_id: string } }).data.user_id);
    assert.deepEqual(users, ['u-held', 'u-after'], 'the event of the pause is never sent');
  });

  it('sends a signed test delivery, logged like any (even while paused), and redeliverable', async () => {
    const receiver = await startReceiver();
    const hook = await subscribe(receiver.url('/test'));
    await patch(hook.id, { status: 'paused' });
    await sender();
    const queued = await call<{ delivery_id: string; webhook_id: string; event: string; status: string }>(
      api,
      'POST',
      `/webhooks/${hook.id}/test`,
      { key },
    );
    assert.equal(queued.status, 202);
    assert.deepEqual(queued.body, {
      delivery_id: queued.body.delivery_id,
      webhook_id: hook.id,
      event: 'test',
      status: 'pending',
    });
    assert.match(queued.body.delivery_id, /^msg_[0-9a-f]{32}$/);

    const got = await waitFor('the test delivery', () => receiver.received[0]);
    assert.ok(verifyStandardWebhook(hook.secret, got.headers, got.body), 'signed with the subscription’s secret');
    assert.equal(got.headers['webhook-id'], queued.body.delivery_id);
    assert.equal(got.headers['content-type'], 'application/json');
    const payload = JSON.parse(got.body) as { event: string; data: Record<string, unknown>; timestamp: string };
    assert.equal(payload.event, 'test');
    assert.equal(payload.data.webhook_id, hook.id);
    assert.equal(typeof payload.data.message, 'string');
    assert.match(payload.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const logged = await waitFor('the test delivery succeeded in the log', async () => {
      const listed = await deliveriesOf(hook.id);
      return listed.length === 1 && listed[0]!.status === 'succeeded' && listed[0];
    });
    assert.deepEqual(
      [logged.id, logged.target, logged.webhook_id, logged.event, logged.attempts],
      [queued.body.delivery_id, 'subscription', hook.id, 'test', 1],
    );
    const detail = await call<Delivery>(api, 'GET', `/webhooks/deliveries/${logged.id}`, { key });
    assert.deepEqual(detail.body.payload, payload);
    assert.deepEqual(
      detail.body.attempt_log.map((a) => a.status),
      [204],
    );
    const again = await call(api, 'POST', `/webhooks/deliveries/${logged.id}/redeliver`, { key });
    assert.equal(again.status, 202);
    await waitFor('the redelivery', () => receiver.received.length === 2);
    assert.equal(receiver.received[1]!.headers['webhook-id'], queued.body.delivery_id);
  });
});
