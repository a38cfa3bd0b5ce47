import assert from 'node:assert/strict';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { startProcessors } from '../../processors/main.js';
import { createKey } from '../../store/api-keys.js';
import type { Stoppable } from '../../lib/role.js';
import { startReceiver } from './https-receiver.js';
import {
  call,
  closeServices,
  count,
  errorOf,
  isolateTopics,
  newProject,
  services,
  waitForAnalytics,
} from './helpers.js';

const ORIGIN = 'https://shop.example';

/**
 * What a stranger holding a page's browser key can make the service say (issue 46): nothing signed
 * (integration and job.completed webhooks come from server-key events only), no server message id
 * taken first, no property a server set changed.
 */
describe('browser keys: what anyone with the page key can make the service say', function () {
  this.timeout(120_000);
  let api: RunningApi;
  let sinks: Stoppable[];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let projectId: string;
  let admin: string;
  let browser: string;
  let server: string;

  before(async () => {
    await isolateTopics();
    api = await startApi({ ...loadConfig(), port: 0, webhookAllowHosts: ['localhost'] }, services());
    sinks = await startProcessors(services(), ['raw-sink', 'analytics']);
    receiver = await startReceiver();
    const project = await newProject(['admin'], ['events:write']);
    [projectId, admin, server] = [project.projectId, project.keys[0]!, project.keys[1]!];
    browser = (await createKey(services().db, projectId, ['events:write'], 'page', [ORIGIN])).key;
    const integration = await call(api, 'PUT', '/settings/integrations/webhook', {
      key: admin,
      json: { url: receiver.url('/integration') },
    });
    assert.equal(integration.status, 201, JSON.stringify(integration.body));
    const hook = await call(api, 'POST', '/webhooks', {
      key: admin,
      json: { url: receiver.url('/jobs'), events: ['job.completed'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const job = await call<{ id: string }>(api, 'POST', '/jobs', {
      key: admin,
      json: { name: 'Check out', goal: 'checkout_done' },
    });
    assert.equal(
      (await call(api, 'PATCH', `/jobs/${job.body.id}`, { key: admin, json: { status: 'active' } })).status,
      200,
    );
  });

  after(async () => {
    await receiver.close();
    await api.close();
    await Promise.all(sinks.map((s) => s.stop()));
    await closeServices();
  });

  const send = (key: string, events: Record<string, unknown>[]) =>
    call<{ message_ids: string[] }>(api, 'POST', '/events/batch', {
      key,
      json: { events },
      headers: key === browser ? { Origin: ORIGIN } : {},
    });
  const deliveries = (event: string, user: string) =>
    count('select 1 from webhook_deliveries where project_id = $1 and event = $2 and user_id = $3', [
      projectId,
      event,
      user,
    ]);

  it('signs integration and job.completed deliveries for server-key events only; both count', async () => {
    for (const [key, user] of [
      [browser, 'u-page'],
      [server, 'u-server'],
    ] as const) {
      const reply = await send(key, [
        { user_id: user, event: 'chat_created', properties: { chat_id: `c-${user}` } },
        { user_id: user, event: 'checkout_done' },
      ]);
      assert.equal(reply.status, 202, JSON.stringify(reply.body));
    }
    await waitForAnalytics();
    assert.equal(await deliveries('chats', 'u-server'), 1);
    assert.equal(await deliveries('job.completed', 'u-server'), 1);
    assert.equal(await deliveries('chats', 'u-page'), 0, 'a chat the service would sign, from anyone');
    assert.equal(await deliveries('job.completed', 'u-page'), 0);
    // The analytics count the page's completion as the server's.
    assert.equal(await count('select 1 from job_completions where project_id = $1', [projectId]), 2);
  });

  it("keeps a browser key's message ids apart: a server's id is never taken first", async () => {
    const page = await send(browser, [{ user_id: 'u-3', event: 'order_placed', message_id: 'order-1' }]);
    assert.deepEqual(page.body.message_ids, ['b:order-1']);
    const real = await send(server, [{ user_id: 'u-3', event: 'order_placed', message_id: 'order-1' }]);
    assert.deepEqual(real.body.message_ids, ['order-1']);
    await waitForAnalytics();
    assert.equal(
      await count("select 1 from session_events where project_id = $1 and user_id = 'u-3'", [projectId]),
      2,
      'both stored: the server event was not taken for a repeat',
    );
    const claimed = await send(server, [{ user_id: 'u-3', event: 'x', message_id: 'b:order-2' }]);
    assert.equal(claimed.status, 400);
    assert.deepEqual(errorOf(claimed).details, { field: 'events[0].message_id', reason: 'reserved' });
  });

  it('adds properties through a browser key, never changes or removes one', async () => {
    const set = await call(api, 'POST', '/users/identify', {
      key: admin,
      json: { user_id: 'u-9', properties: { plan: 'pro', seats: 12 } },
    });
    assert.equal(set.status, 201);
    const page = await call(api, 'POST', '/users/identify', {
      key: browser,
      json: { user_id: 'u-9', properties: { plan: 'free', seats: null, theme: 'dark' } },
      headers: { Origin: ORIGIN },
    });
    assert.equal(page.status, 200);
    const got = await call<{ properties: Record<string, unknown> }>(api, 'GET', '/users/u-9', { key: admin });
    assert.deepEqual(got.body.properties, { plan: 'pro', seats: 12, theme: 'dark' });
  });
});
