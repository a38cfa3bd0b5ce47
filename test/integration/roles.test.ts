import assert from 'node:assert/strict';
import { ensureUser, issueToken } from '../../api/console/accounts.js';
import type { Role } from '../../api/console/roles.js';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, errorOf, newProject, services, startTestApi } from './helpers.js';
import { type StreamClient, connectStream } from './stream-client.js';

/** A signed-in console member: the headers that carry their session (cookie, CSRF token, Origin). */
interface Member {
  id: string;
  email: string;
  as: Record<string, string>;
}

const REPORT = { name: 'weekly', type: 'friction', schedule: 'weekly', recipients: ['ops@example.com'] };

/**
 * Console roles against the real API and Postgres (issue 46): what each role may do, keys that
 * record who made them, and a removed member's keys and streams ended.
 */
describe('console roles', function () {
  this.timeout(60_000);
  let api: RunningApi;
  let projectId: string;
  let adminKey: string;
  let origin: string;
  let owner: Member;
  let n = 0;

  /** A new member of the project with `role`, signed in through a one-time link. */
  async function signedIn(role: Role): Promise<Member> {
    const email = `${role}-${++n}-${process.pid}-${Date.now()}@example.com`;
    const user = await ensureUser(services().db, projectId, email, role);
    const { token } = await issueToken(services().db, user, 'signIn');
    const reply = await call<{ csrf_token: string }>(api, 'POST', '/console/sign-in/link', {
      json: { token },
      headers: { Origin: origin },
    });
    assert.equal(reply.status, 200);
    const cookie = reply.headers.get('set-cookie')!.split(';')[0]!;
    return { id: user.userId, email, as: { Cookie: cookie, 'X-CSRF-Token': reply.body.csrf_token, Origin: origin } };
  }

  /** A stream authenticated with the member's console stream token. */
  async function streamOf(member: Member): Promise<StreamClient> {
    const token = await call<{ token: string }>(api, 'POST', '/console/stream-token', { headers: member.as });
    assert.equal(token.status, 201);
    const stream = await connectStream(api.streamUrl);
    stream.send({ type: 'auth', api_key: token.body.token });
    await stream.next((m) => m.type === 'auth_ok');
    return stream;
  }

  const createKey = (headers: Record<string, string> | { key: string }, name: string) =>
    call<{ id: string; key: string }>(api, 'POST', '/api-keys', {
      ...('key' in headers ? { key: headers.key } : { headers }),
      json: { name, scopes: ['admin'] },
    });

  before(async () => {
    api = await startTestApi();
    origin = new URL(api.baseUrl).origin;
    ({
      projectId,
      keys: [adminKey = ''],
    } = await newProject(['admin']));
    owner = await signedIn('owner');
  });

  after(async () => {
    await api?.close();
    await closeServices();
  });

  it('a viewer reads the analytics and the jobs, and changes nothing', async () => {
    const viewer = await signedIn('viewer');
    const read = await call(api, 'GET', '/analytics/features?date_range=last_7_days', { headers: viewer.as });
    assert.equal(read.status, 200);
    assert.equal((await call(api, 'GET', '/jobs', { headers: viewer.as })).status, 200);
    const session = await call<{ user: { role: string } }>(api, 'GET', '/console/session', { headers: viewer.as });
    assert.equal(session.body.user.role, 'viewer');

    const job = await call(api, 'POST', '/jobs', { headers: viewer.as, json: { name: 'not for viewers' } });
    assert.equal(job.status, 403);
    assert.deepEqual(errorOf(job).details, {
      reason: 'role',
      role: 'viewer',
      required_scope: 'definitions:write',
      allowed_roles: ['owner', 'admin', 'member'],
    });
    for (const [method, path] of [
      ['GET', '/api-keys'],
      ['GET', '/audit-log'],
      ['GET', '/analytics/export/events?format=json&date_range=last_7_days'],
    ] as const) {
      const refused = await call(api, method, path, { headers: viewer.as });
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.equal(errorOf(refused).details.reason, 'role');
    }
  });

  it('a member manages jobs and cohorts but no keys, destinations, settings or members', async () => {
    const member = await signedIn('member');
    const job = await call<{ id: string }>(api, 'POST', '/jobs', { headers: member.as, json: { name: 'onboarding' } });
    assert.equal(job.status, 201);
    const cohort = await call(api, 'POST', '/cohorts', {
      headers: member.as,
      json: { name: 'power users', criteria: { sessions: { gte: 10 } } },
    });
    assert.equal(cohort.status, 201);
    assert.equal((await call(api, 'DELETE', `/jobs/${job.body.id}`, { headers: member.as })).status, 200);

    for (const [method, path, json] of [
      ['POST', '/api-keys', { name: 'mine', scopes: ['admin'] }],
      ['POST', '/analytics/reports', REPORT],
      ['POST', '/webhooks', { url: 'https://hooks.example.com/x', events: ['job.completed'] }],
      ['PUT', '/settings/integrations/webhook', { url: 'https://hooks.example.com/x' }],
      ['POST', '/analytics/export/warehouse', { destination: 'duckdb', credentials: {}, tables: ['raw_events'] }],
      ['PUT', '/settings/retention', { rawEventsDays: 30 }],
      ['POST', '/events', { user_id: 'u1', event: 'x' }],
      ['POST', '/console/members', { email: 'someone@example.com' }],
    ] as const) {
      const refused = await call(api, method, path, { headers: member.as, json });
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.equal(errorOf(refused).details.reason, 'role', `${method} ${path}`);
    }
  });

  it('an admin creates keys and destinations, but only owners manage members', async () => {
    const admin = await signedIn('admin');
    assert.equal((await createKey(admin.as, 'by an admin')).status, 201);
    assert.equal((await call(api, 'POST', '/analytics/reports', { headers: admin.as, json: REPORT })).status, 201);
    const invite = await call(api, 'POST', '/console/members', {
      headers: admin.as,
      json: { email: `x-${Date.now()}@example.com` },
    });
    assert.equal(invite.status, 403);
    assert.deepEqual(errorOf(invite).details.allowed_roles, ['owner']);

    const invited = await call<{ member: { id: string; role: string } }>(api, 'POST', '/console/members', {
      headers: owner.as,
      json: { email: `viewer-${Date.now()}@example.com`, role: 'viewer' },
    });
    assert.equal(invited.status, 201);
    assert.equal(invited.body.member.role, 'viewer');
  });

  it('keys record who made them: the console member, or the key', async () => {
    const admin = await signedIn('admin');
    const byMember = await createKey(admin.as, 'made by a member');
    const byKey = await createKey({ key: adminKey }, 'made by a key');
    assert.equal(byMember.status, 201);
    assert.deepEqual((byMember.body as Record<string, unknown>).created_by, {
      type: 'member',
      id: admin.id,
      email: admin.email,
    });
    const list = await call<{ api_keys: { id: string; created_by: unknown }[] }>(api, 'GET', '/api-keys?per_page=100', {
      key: adminKey,
    });
    const creatorOf = (id: string) => list.body.api_keys.find((k) => k.id === id)?.created_by;
    assert.deepEqual(creatorOf(byMember.body.id), { type: 'member', id: admin.id, email: admin.email });
    assert.deepEqual(creatorOf(byKey.body.id), { type: 'api_key', id: adminKey.split('_')[1], email: null });
    // The project's first key was made by an operator (npm run key:create): no creator recorded.
    assert.equal(creatorOf(adminKey.split('_')[1]!), null);
  });

  it('removing a member revokes the keys they made (and those keys made) and closes their stream', async () => {
    const leaving = await signedIn('admin');
    const minted = await createKey(leaving.as, 'minted by the leaver');
    const chained = await createKey({ key: minted.body.key }, 'minted by that key');
    assert.equal(chained.status, 201);
    const staying = await createKey(owner.as, "the owner's");
    const stream = await streamOf(leaving);
    assert.equal((await call(api, 'GET', '/api-keys', { key: minted.body.key })).status, 200);

    const removed = await call(api, 'DELETE', `/console/members/${leaving.id}`, { headers: owner.as });
    assert.equal(removed.status, 200);

    for (const key of [minted.body.key, chained.body.key]) {
      const refused = await call(api, 'GET', '/api-keys', { key });
      assert.equal(refused.status, 401);
    }
    assert.equal((await call(api, 'GET', '/api-keys', { key: staying.body.key })).status, 200);
    assert.equal((await call(api, 'GET', '/console/session', { headers: leaving.as })).status, 401);
    const closed = await stream.closed;
    assert.equal(closed.code, 1008);
    assert.ok(
      stream.messages.some((m) => m.type === 'error' && /session has ended/.test(String(m.message))),
      JSON.stringify(stream.messages),
    );
  });

  it('signing out closes the streams opened with the session', async () => {
    const viewer = await signedIn('viewer');
    const stream = await streamOf(viewer);
    assert.equal((await call(api, 'POST', '/console/sign-out', { headers: viewer.as })).status, 200);
    assert.equal((await stream.closed).code, 1008);
  });

  it('taking admin from a member revokes their keys; a project keeps an owner', async () => {
    const admin = await signedIn('admin');
    const minted = await createKey(admin.as, 'minted before the demotion');
    const demoted = await call<{ role: string }>(api, 'PATCH', `/console/members/${admin.id}`, {
      headers: owner.as,
      json: { role: 'member' },
    });
    assert.equal(demoted.status, 200);
    assert.equal(demoted.body.role, 'member');
    assert.equal((await call(api, 'GET', '/api-keys', { key: minted.body.key })).status, 401);
    assert.equal((await createKey(admin.as, 'no longer allowed')).status, 403);

    const last = await call(api, 'PATCH', `/console/members/${owner.id}`, {
      headers: owner.as,
      json: { role: 'admin' },
    });
    assert.equal(last.status, 409);
    assert.equal(errorOf(last).details.reason, 'last_owner');
    const bad = await call(api, 'PATCH', `/console/members/${admin.id}`, { headers: owner.as, json: { role: 'root' } });
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad).details.field, 'role');
  });
});
