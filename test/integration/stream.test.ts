import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { defaultOptions, sendSimulation } from '../../scripts/simulate.js';
import { refreshCohortMembership } from '../../workers/cohort-membership/worker.js';
import {
  call,
  newProject,
  services,
  startPipeline,
  startTestApi,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
} from './helpers.js';
import { connectStream, subscribedClient } from './stream-client.js';

describe('stream: ws://…/v1/stream', function () {
  this.timeout(60_000);
  let pipeline: TestPipeline;
  let a: { projectId: string; keys: string[] };
  let b: { projectId: string; keys: string[] };
  const url = () => pipeline.api.streamUrl;

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    a = await newProject(['admin'], ['analytics:read'], ['events:write']);
    b = await newProject(['admin']);
    // Alerts on this project fire on one user's friction, so a short session raises one.
    const settings = await call(pipeline.api, 'PUT', '/settings/analytics', {
      key: a.keys[0],
      json: { alerts: { frictionIndex: 0.05, minUsersAffected: 1 } },
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
  });

  after(() => stopPipeline(pipeline));

  it('refuses a wrong key with an error, then closes', async () => {
    const client = await connectStream(url());
    client.send({ type: 'auth', api_key: 'pi_0000000000000000_' + 'x'.repeat(43) });
    assert.deepEqual((await client.next((m) => m.type === 'error')).code, 'unauthorized');
    assert.equal((await client.closed).code, 1008);
  });

  it('closes a connection whose first message is not auth', async () => {
    const client = await connectStream(url());
    client.send({ type: 'subscribe', channels: ['friction_alerts'] });
    assert.equal((await client.next((m) => m.type === 'error')).code, 'unauthorized');
    assert.equal((await client.closed).code, 1008);
  });

  it('refuses a key without analytics:read', async () => {
    const client = await connectStream(url());
    client.send({ type: 'auth', api_key: a.keys[2] });
    assert.equal((await client.next((m) => m.type === 'error')).code, 'unauthorized');
    assert.equal((await client.closed).code, 1008);
  });

  it('answers auth, subscribe and unsubscribe; bad messages get errors without closing', async () => {
    const client = await connectStream(url());
    client.send({ type: 'auth', api_key: a.keys[1] });
    assert.deepEqual(await client.next((m) => m.type === 'auth_ok'), { type: 'auth_ok' });
    client.send({ type: 'subscribe', channels: ['friction_alerts', 'nope'] });
    const unknown = await client.next((m) => m.type === 'error');
    assert.equal(unknown.code, 'unknown_channel');
    assert.deepEqual((unknown.details as { unknown: string[] }).unknown, ['nope']);
    client.messages.length = 0;
    client.ws.send('not json');
    assert.equal((await client.next((m) => m.type === 'error')).code, 'invalid_message');
    client.messages.length = 0;
    client.send({ type: 'dance' });
    assert.equal((await client.next((m) => m.type === 'error')).code, 'unknown_type');
    client.send({ type: 'subscribe', channels: ['friction_alerts', 'job_completions'] });
    assert.deepEqual(await client.next((m) => m.type === 'subscribed'), {
      type: 'subscribed',
      channels: ['friction_alerts', 'job_completions'],
    });
    client.messages.length = 0;
    client.send({ type: 'unsubscribe', channels: ['friction_alerts'] });
    assert.deepEqual(await client.next((m) => m.type === 'subscribed'), {
      type: 'subscribed',
      channels: ['job_completions'],
    });
    assert.equal(client.ws.readyState, client.ws.OPEN);
    client.ws.close();
  });

  it('delivers a friction alert and a job completion from live traffic within 3 s, to the project only', async () => {
    const api = pipeline.api;
    const job = await call<{ id: string }>(api, 'POST', '/jobs', {
      key: a.keys[0],
      json: { name: 'Buy', goal: 'purchase_completed', target_audience: { type: 'all' } },
    });
    assert.equal(job.status, 201);
    assert.equal(
      (await call(api, 'PATCH', `/jobs/${job.body.id}`, { key: a.keys[0], json: { status: 'active' } })).status,
      200,
    );
    // Warm the pipeline up, so the 3 s measure the path of one batch, not consumer start-up.
    await call(api, 'POST', '/events', {
      key: a.keys[0],
      json: { user_id: 'warm', event: 'page_view', properties: { page: '/warm' } },
    });
    await waitForAnalytics();

    const mine = await subscribedClient(url(), a.keys[1]!, ['friction_alerts', 'job_completions']);
    const theirs = await subscribedClient(url(), b.keys[0]!, ['friction_alerts', 'job_completions']);
    const user = `buyer-${crypto.randomUUID()}`;
    const t0 = Date.now() - 60_000;
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    const events = [
      { event: 'page_view', properties: { page: '/checkout' }, timestamp: at(0) },
      ...[1, 1.2, 1.4, 1.6].map((s) => ({
        event: 'click',
        properties: { page: '/checkout', element: '#pay', x: 10, y: 10 },
        timestamp: at(s),
      })),
      { event: 'purchase_completed', properties: { page: '/checkout' }, timestamp: at(3) },
    ].map((e) => ({ ...e, user_id: user }));
    const posted = await call(api, 'POST', '/events/batch', { key: a.keys[0], json: { events } });
    assert.equal(posted.status, 202);
    const sent = Date.now();

    const alert = await mine.next((m) => m.channel === 'friction_alerts', 10_000);
    const completion = await mine.next((m) => m.channel === 'job_completions', 10_000);
    const latency = Date.now() - sent;
    assert.ok(latency <= 3000, `both arrived ${latency} ms after the 202`);
    const alertData = alert.data as Record<string, unknown>;
    assert.equal(alertData.page, '/checkout');
    assert.equal(alertData.users_affected, 1);
    assert.ok((alertData.friction_index as number) >= 0.05);
    assert.match(String(alert.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(completion.data, { job_id: job.body.id, user_id: user, completed_at: at(3) });

    // Marker: a completion of the other project, written after ours were published. The server
    // publishes rows in the order written, each client's on one socket, so had ours leaked to that
    // client they would have arrived before it.
    await services().db.query(
      `insert into job_completions (project_id, job_id, user_id, completion_id, completed_at, message_id)
       values ($1, 'job_marker', 'u-marker', 'jc_marker', now(), 'm-marker')`,
      [b.projectId],
    );
    const marker = await theirs.next((m) => (m.data as { job_id?: string } | undefined)?.job_id === 'job_marker');
    assert.deepEqual(
      theirs.messages.filter((m) => m.channel),
      [marker],
      'another project sees nothing of ours',
    );
    mine.ws.close();
    theirs.ws.close();
  });

  it('publishes cohort membership changes on cohort_changes, to the project only', async () => {
    const api = pipeline.api;
    const mine = await subscribedClient(url(), a.keys[1]!, ['cohort_changes']);
    const theirs = await subscribedClient(url(), b.keys[0]!, ['cohort_changes']);
    const user = `member-${crypto.randomUUID()}`;
    const posted = await call(api, 'POST', '/events', {
      key: a.keys[0],
      json: { user_id: user, event: 'page_view', properties: { page: '/cohort' } },
    });
    assert.equal(posted.status, 202);
    await waitForAnalytics();
    const cohort = await call<{ id: string }>(api, 'POST', '/cohorts', {
      key: a.keys[0],
      json: { name: 'Everyone', criteria: { events: { gte: 1 } } },
    });
    assert.equal(cohort.status, 201);
    await refreshCohortMembership(services());
    const change = await mine.next((m) => m.channel === 'cohort_changes');
    const data = change.data as Record<string, unknown>;
    assert.deepEqual([data.cohort_id, data.name, data.type, data.removed], [cohort.body.id, 'Everyone', 'custom', []]);
    assert.ok((data.added as string[]).includes(user));
    assert.equal(data.size, data.added_count);
    assert.match(String(change.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Marker: a change of the other project, written after ours was published (see the test above).
    await services().db.query(
      `insert into cohort_changes (project_id, change_id, cohort_id, name, type, added, removed, size)
       values ($1, 'cc_marker', 'coh_marker', 'marker', 'custom', '{}', '{u}', 0)`,
      [b.projectId],
    );
    const marker = await theirs.next((m) => (m.data as { cohort_id?: string } | undefined)?.cohort_id === 'coh_marker');
    assert.deepEqual(
      theirs.messages.filter((m) => m.channel),
      [marker],
      'another project sees nothing of ours',
    );
    mine.ws.close();
    theirs.ws.close();
  });

  it('publishes an alert of each project when two projects alert on the same page and day', async () => {
    const api = pipeline.api;
    const settings = await call(api, 'PUT', '/settings/analytics', {
      key: b.keys[0],
      json: { alerts: { frictionIndex: 0.05, minUsersAffected: 1 } },
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    const t0 = Date.now() - 60_000;
    const rage = (user: string) =>
      [0, 1, 1.2, 1.4, 1.6].map((s, i) => ({
        user_id: user,
        event: i === 0 ? 'page_view' : 'click',
        properties: { page: '/same-page', element: '#same' },
        timestamp: new Date(t0 + s * 1000).toISOString(),
      }));
    const clientA = await subscribedClient(url(), a.keys[1]!, ['friction_alerts']);
    const clientB = await subscribedClient(url(), b.keys[0]!, ['friction_alerts']);
    const isOurs = (m: { channel?: string; data?: unknown }) =>
      m.channel === 'friction_alerts' && (m.data as { page: string }).page === '/same-page';
    // One after the other: the second alert is published in a later pass than the first.
    const first = await call(api, 'POST', '/events/batch', { key: a.keys[0], json: { events: rage('rager-a') } });
    assert.equal(first.status, 202);
    const alertA = await clientA.next(isOurs, 10_000);
    const second = await call(api, 'POST', '/events/batch', { key: b.keys[0], json: { events: rage('rager-b') } });
    assert.equal(second.status, 202);
    const alertB = await clientB.next(isOurs, 10_000);
    assert.notEqual(
      (alertA.data as { alert_id: string }).alert_id,
      (alertB.data as { alert_id: string }).alert_id,
      'alert ids are unique across projects',
    );
    clientA.ws.close();
    clientB.ws.close();
  });

  it("publishes what the simulator's traffic produces: alerts and completions within 3 s", async () => {
    const api = pipeline.api;
    const c = await newProject(['admin']);
    await call(api, 'PUT', '/settings/analytics', {
      key: c.keys[0],
      json: { alerts: { frictionIndex: 0.05, minUsersAffected: 1 } },
    });
    const job = await call<{ id: string }>(api, 'POST', '/jobs', {
      key: c.keys[0],
      json: { name: 'Use a feature', goal: 'feature_used', target_audience: { type: 'all' } },
    });
    await call(api, 'PATCH', `/jobs/${job.body.id}`, { key: c.keys[0], json: { status: 'active' } });
    const client = await subscribedClient(url(), c.keys[0]!, ['friction_alerts', 'job_completions']);
    const simulation = await sendSimulation(api.baseUrl, c.keys[0]!, defaultOptions(7, 12, 2));
    const sent = Date.now();
    const alert = await client.next((m) => m.channel === 'friction_alerts', 10_000);
    const completion = await client.next((m) => m.channel === 'job_completions', 10_000);
    assert.ok(Date.now() - sent <= 3000, `first alert and completion ${Date.now() - sent} ms after the last batch`);
    assert.ok(Object.keys(simulation.answers.pages).includes((alert.data as { page: string }).page));
    assert.equal((completion.data as { job_id: string }).job_id, job.body.id);
    const users = new Set(simulation.users.map((u) => u.user_id));
    assert.ok(users.has((completion.data as { user_id: string }).user_id));
    client.ws.close();
  });

  it('drops a client that does not read instead of buffering for it', async () => {
    const slow = await subscribedClient(url(), a.keys[1]!, ['job_completions']);
    const fine = await subscribedClient(url(), a.keys[1]!, ['job_completions']);
    // The slow client stops reading; the server's send buffer for it fills up.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    await services().db.query(
      `insert into job_completions (project_id, job_id, user_id, completion_id, completed_at, message_id)
       select $1, 'job_flood', 'flood-' || i, 'jc_flood_' || i, now(), 'm' || i from generate_series(1, 40000) i`,
      [a.projectId],
    );
    await waitFor('the reading client to get all of them', () => fine.messages.length >= 40_000 + 2, 30_000);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const { code } = await slow.closed;
    assert.ok([1013, 1006].includes(code), `closed with ${code}`);
    assert.ok(slow.messages.length < 40_000, `the slow client got ${slow.messages.length} before it was dropped`);
    fine.ws.close();
  });

  it('closes every connection with 1001 when the server shuts down', async () => {
    const own = await startTestApi();
    const client = await subscribedClient(own.streamUrl, a.keys[1]!, ['job_completions']).finally(() => own.close());
    assert.deepEqual(await client.closed, { code: 1001, reason: 'server shutting down' });
  });

  it('closes a connection that does not authenticate within 10 s', async function () {
    this.timeout(20_000);
    const client = await connectStream(url());
    const started = Date.now();
    const { code } = await client.closed;
    assert.equal(code, 1008);
    assert.ok(Date.now() - started >= 9_500, 'not before 10 s');
    assert.equal(client.messages[0]?.code, 'auth_timeout');
  });
});
