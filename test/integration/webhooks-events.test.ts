import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { refreshCohortMembership } from '../../workers/cohort-membership/worker.js';
import { startProcessors } from '../../processors/main.js';
import type { RunningSink } from '../../processors/runtime/postgres-sink.js';
import { type RunningSender, startWebhookSender } from '../../workers/webhooks/sender.js';
import {
  call,
  closeServices,
  count,
  errorOf,
  isolateTopics,
  newProject,
  services,
  waitFor,
  waitForAnalytics,
} from './helpers.js';
import { type Received, startReceiver, testPki, verifyStandardWebhook } from './https-receiver.js';

/** What each kind of webhook carries, produced by real traffic through the pipeline. */
describe('webhook events from live traffic: chats, walkthrough-progress, user.friction_detected, cohort.changed', function () {
  this.timeout(60_000);
  let api: RunningApi;
  let sinks: RunningSink[];
  let sender: RunningSender;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let key: string;
  let projectId: string;
  const t0 = Date.now() - 3600_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();

  before(async () => {
    await isolateTopics();
    api = await startApi({ ...loadConfig(), port: 0, webhookAllowHosts: ['localhost'] }, services());
    sinks = await startProcessors(services(), ['raw-sink', 'analytics']);
    const s = services();
    sender = await startWebhookSender({
      ...s,
      config: { ...s.config, webhookCaFile: testPki().caFile, webhookAllowHosts: ['localhost'], pollIntervalMs: 500 },
    });
    receiver = await startReceiver();
    const project = await newProject(['admin']);
    [projectId, key] = [project.projectId, project.keys[0]!];
  });

  after(async () => {
    await sender.stop();
    await receiver.close();
    await api.close();
    await Promise.all(sinks.map((x) => x.stop()));
    await closeServices();
  });

  const post = async (events: object[]) => {
    const reply = await call(api, 'POST', '/events/batch', { key, json: { events } });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    await waitForAnalytics();
  };
  const arrivals = (path: string) => receiver.received.filter((r) => r.path === path);
  const payloads = (path: string) =>
    arrivals(path).map((r: Received) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> });

  it('connects the integration endpoint, sends chats and walkthrough-progress, signed, once each', async () => {
    const bad = await call(api, 'PUT', '/settings/integrations/webhook', {
      key,
      json: { url: 'https://10.1.2.3/in' },
    });
    assert.equal(errorOf(bad).details.reason, 'forbidden_target');
    assert.equal((await call(api, 'GET', '/settings/integrations/webhook', { key })).status, 404);

    const connect = await call<{ secret: string; url: string; events: string[] }>(
      api,
      'PUT',
      '/settings/integrations/webhook',
      { key, json: { url: receiver.url('/integration') } },
    );
    assert.equal(connect.status, 201);
    assert.match(connect.body.secret, /^whsec_/);
    assert.deepEqual(connect.body.events, ['chats', 'walkthrough-progress']);
    const shown = await call<Record<string, unknown>>(api, 'GET', '/settings/integrations/webhook', { key });
    assert.equal(shown.body.secret, undefined, 'the secret is shown once');

    const chat = {
      user_id: 'agent-7',
      event: 'chat_created',
      message_id: 'chat-1',
      timestamp: at(0),
      properties: { chat_id: 'c-42', actor: 'customer', chat_type: 'support', tenant_id: 't-1', page: '/help' },
    };
    const step = {
      user_id: 'agent-7',
      event: 'walkthrough_step_completed',
      message_id: 'wt-3',
      timestamp: at(5),
      properties: { walkthrough_id: 'onboarding', step_id: 'invite', step_index: 3, total_steps: 3 },
    };
    await post([chat, step, { user_id: 'agent-7', event: 'page_view', timestamp: at(6), properties: { page: '/x' } }]);
    await waitFor('two integration deliveries', () => arrivals('/integration').length === 2);
    for (const r of arrivals('/integration')) assert.ok(verifyStandardWebhook(connect.body.secret, r.headers, r.body));
    const byEvent = Object.fromEntries(
      arrivals('/integration').map((r) => {
        const body = JSON.parse(r.body) as { event: string };
        return [body.event, body];
      }),
    );
    assert.deepEqual(byEvent.chats, {
      event: 'chats',
      timestamp: new Date(t0).toISOString(),
      user_id: 'agent-7',
      properties: { chat_id: 'c-42', actor: 'customer', chat_type: 'support', tenant_id: 't-1', status: 'created' },
    });
    assert.deepEqual(byEvent['walkthrough-progress'], {
      event: 'walkthrough-progress',
      timestamp: at(5),
      user_id: 'agent-7',
      properties: { walkthrough_id: 'onboarding', step_id: 'invite', step_index: 3, total_steps: 3, completed: true },
    });

    // The same events again (a client retry): already stored, so nothing is sent twice.
    await post([chat, step]);
    await sender.drain();
    assert.equal(arrivals('/integration').length, 2);
    // A replay of the raw-sink deletes and re-inserts the raw rows: still nothing new is queued.
    await services().db.query(
      `with gone as (delete from raw_events where project_id = $1 returning *) insert into raw_events select * from gone`,
      [projectId],
    );
    await sender.drain();
    assert.equal(
      await count('select 1 from webhook_deliveries where project_id = $1 and target = $2', [projectId, 'integration']),
      2,
    );
    assert.equal(arrivals('/integration').length, 2);
  });

  it('announces a rage-click episode as user.friction_detected with the documented fields', async () => {
    const sub = await call<{ id: string }>(api, 'POST', '/webhooks', {
      key,
      json: { url: receiver.url('/friction'), events: ['user.friction_detected'] },
    });
    assert.equal(sub.status, 201);
    const user = `rager-${crypto.randomUUID()}`;
    await post([
      { user_id: user, event: 'page_view', timestamp: at(100), properties: { page: '/billing' } },
      ...[101, 101.2, 101.4].map((s) => ({
        user_id: user,
        event: 'click',
        timestamp: at(s),
        properties: { page: '/billing', element: '#pay', x: 5, y: 5 },
      })),
      { user_id: user, event: 'page_view', timestamp: at(110), properties: { page: '/home' } },
    ]);
    await waitFor('the friction webhook', () => arrivals('/friction').length === 1);
    const [payload] = payloads('/friction');
    assert.equal(payload!.event, 'user.friction_detected');
    const data = payload!.data;
    assert.deepEqual(
      { ...data, session_id: typeof data.session_id, friction_index: typeof data.friction_index },
      {
        user_id: user,
        page: '/billing',
        element: '#pay',
        signal: 'rage_click',
        friction_index: 'number',
        session_id: 'string',
        detected_at: at(101.4),
      },
    );
    assert.ok((data.friction_index as number) > 0 && (data.friction_index as number) <= 1);

    // A late event re-splits the session; the episode is the same one and is not announced again.
    await post([{ user_id: user, event: 'page_view', timestamp: at(99), properties: { page: '/pricing' } }]);
    await sender.drain();
    assert.equal(arrivals('/friction').length, 1);
  });

  it('publishes cohort membership changes as cohort.changed', async () => {
    await call(api, 'POST', '/webhooks', { key, json: { url: receiver.url('/cohort'), events: ['cohort.changed'] } });
    const cohort = await call<{ id: string }>(api, 'POST', '/cohorts', {
      key,
      json: { name: 'Busy', criteria: { events: { gte: 3 } } },
    });
    assert.equal(cohort.status, 201);
    await refreshCohortMembership(services());
    await waitFor('the first change', () => arrivals('/cohort').length === 1);
    const members = (
      await services().db.query<{ user_id: string }>(
        'select user_id from user_metrics where project_id = $1 and events >= 3 order by user_id',
        [projectId],
      )
    ).rows.map((r) => r.user_id);
    assert.ok(members.length >= 2);
    assert.deepEqual(payloads('/cohort')[0]!.data, {
      cohort_id: cohort.body.id,
      name: 'Busy',
      type: 'custom',
      added: members,
      removed: [],
      added_count: members.length,
      removed_count: 0,
      size: members.length,
      changed_at: (payloads('/cohort')[0]!.data as { changed_at: string }).changed_at,
    });
    assert.equal(await refreshCohortMembership(services()), 0, 'no change, no row');

    // One more busy user joins; erasing another removes them.
    const newcomer = `busy-${crypto.randomUUID()}`;
    await post(
      [0, 1, 2, 3, 4].map((i) => ({
        user_id: newcomer,
        event: 'page_view',
        timestamp: at(200 + i),
        properties: { page: '/p' },
      })),
    );
    await refreshCohortMembership(services());
    await waitFor('the second change', () => arrivals('/cohort').length === 2);
    const second = payloads('/cohort')[1]!.data;
    assert.deepEqual([second.added, second.removed, second.size], [[newcomer], [], members.length + 1]);

    const erased = members[0]!;
    assert.equal((await call(api, 'DELETE', `/users/${encodeURIComponent(erased)}`, { key })).status, 200);
    assert.equal(
      await count(
        `select 1 from cohort_changes where project_id = $1 and $2 = any (added || removed)
         union all select 1 from webhook_deliveries where project_id = $1 and (user_id = $2 or payload::text like '%' || $2 || '%')`,
        [projectId, erased],
      ),
      0,
      'erasure leaves no trace of the user in changes or deliveries',
    );

    // Deleting the cohort is its members' last change: every remaining one leaves it.
    await refreshCohortMembership(services());
    assert.equal((await call(api, 'DELETE', `/cohorts/${cohort.body.id}`, { key })).status, 200);
    await waitFor('the last change', () => arrivals('/cohort').length === 3);
    const last = payloads('/cohort')[2]!.data;
    const remaining = [...members.slice(1), newcomer].sort();
    assert.deepEqual(
      [last.cohort_id, last.name, last.added, last.removed, last.size],
      [cohort.body.id, 'Busy', [], remaining, 0],
    );
  });
});
