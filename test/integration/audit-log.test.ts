import assert from 'node:assert/strict';
import { ensureUser, issueToken } from '../../api/console/accounts.js';
import type { Role } from '../../api/console/roles.js';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { call, closeServices, errorOf, newProject, services } from './helpers.js';

interface Entry {
  id: string;
  at: string;
  actor: { type: string; id: string; email: string | null };
  action: string;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
  address: string | null;
}
interface Log {
  entries: Entry[];
  total: number;
  page_number: number;
  page: number;
  per_page: number;
  next: number | null;
}

const OWNER_AT = '198.51.100.7';
const ADMIN_AT = '203.0.113.5';
const KEY_AT = '192.0.2.44';

/**
 * The audit log against the real API and Postgres (issue 46): every administrative change, who made
 * it (a console member or a key), when and from which client address, readable at GET /audit-log.
 */
describe('audit log', function () {
  this.timeout(60_000);
  let api: RunningApi;
  let projectId: string;
  let adminKey: string;
  let adminKeyId: string;
  let origin: string;

  /** A signed-in member with `role`, whose requests come from `address` (the test plays the proxy). */
  async function signedIn(role: Role, address: string) {
    const email = `${role}-${process.pid}-${Date.now()}@example.com`;
    const user = await ensureUser(services().db, projectId, email, role);
    const { token } = await issueToken(services().db, user, 'signIn');
    const reply = await call<{ csrf_token: string }>(api, 'POST', '/console/sign-in/link', {
      json: { token },
      headers: { Origin: origin, 'X-Forwarded-For': address },
    });
    assert.equal(reply.status, 200);
    const cookie = reply.headers.get('set-cookie')!.split(';')[0]!;
    const as = { Cookie: cookie, 'X-CSRF-Token': reply.body.csrf_token, Origin: origin, 'X-Forwarded-For': address };
    return { id: user.userId, email, as };
  }

  const byKey = { 'X-Forwarded-For': KEY_AT };
  const log = async (query = '') => {
    const reply = await call<Log>(api, 'GET', `/audit-log${query}`, { key: adminKey, headers: byKey });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };

  before(async () => {
    const config = { ...loadConfig(), port: 0, trustedProxies: { addresses: ['127.0.0.1', '::1'] } };
    api = await startApi(config, { ...services(), log: createLogger('silent') });
    origin = new URL(api.baseUrl).origin;
    const project = await newProject(['admin']);
    [projectId, adminKey] = [project.projectId, project.keys[0]!];
    adminKeyId = adminKey.split('_')[1]!;
  });

  after(async () => {
    await api?.close();
    await closeServices();
  });

  it('records who changed keys and members, when and from where', async () => {
    const started = Date.now();
    const owner = await signedIn('owner', OWNER_AT);
    const invited = await call<{ member: { id: string; email: string } }>(api, 'POST', '/console/members', {
      headers: owner.as,
      json: { email: `admin-${Date.now()}@example.com`, role: 'admin' },
    });
    assert.equal(invited.status, 201);
    const link = await call(api, 'POST', `/console/members/${invited.body.member.id}/sign-in-link`, {
      headers: owner.as,
    });
    assert.equal(link.status, 201);
    const admin = await signedIn('admin', ADMIN_AT);
    const minted = await call<{ id: string; key: string }>(api, 'POST', '/api-keys', {
      headers: admin.as,
      json: { name: 'ci', scopes: ['events:write'] },
    });
    const byKeyMade = await call<{ id: string }>(api, 'POST', '/api-keys', {
      key: adminKey,
      headers: byKey,
      json: { name: 'made by a key', scopes: ['analytics:read'] },
    });
    assert.equal(
      (await call(api, 'DELETE', `/api-keys/${byKeyMade.body.id}`, { key: adminKey, headers: byKey })).status,
      200,
    );
    const demoted = await call(api, 'PATCH', `/console/members/${invited.body.member.id}`, {
      headers: owner.as,
      json: { role: 'viewer' },
    });
    assert.equal(demoted.status, 200);
    assert.equal((await call(api, 'DELETE', `/console/members/${admin.id}`, { headers: owner.as })).status, 200);

    const { entries, total } = await log();
    assert.equal(total, 8);
    // Newest first.
    assert.deepEqual(
      entries.map((e) => e.action),
      [
        'member.removed',
        'api_key.revoked',
        'member.role_changed',
        'api_key.revoked',
        'api_key.created',
        'api_key.created',
        'member.sign_in_link_issued',
        'member.invited',
      ],
    );
    const [
      removed,
      revokedWithMember,
      roleChanged,
      revokedByKey,
      createdByKey,
      createdByMember,
      linkIssued,
      invitedEntry,
    ] = entries;
    assert.deepEqual(invitedEntry!.actor, { type: 'member', id: owner.id, email: owner.email });
    assert.equal(invitedEntry!.address, OWNER_AT);
    assert.deepEqual(invitedEntry!.target, { type: 'member', id: invited.body.member.id });
    assert.deepEqual(invitedEntry!.details, { email: invited.body.member.email, role: 'admin' });

    assert.deepEqual(linkIssued!.target, { type: 'member', id: invited.body.member.id });
    assert.deepEqual(createdByMember!.actor, { type: 'member', id: admin.id, email: admin.email });
    assert.equal(createdByMember!.address, ADMIN_AT);
    assert.deepEqual(createdByMember!.target, { type: 'api_key', id: minted.body.id });
    assert.deepEqual(createdByMember!.details, { name: 'ci', scopes: ['events:write'], allowed_origins: null });

    assert.deepEqual(createdByKey!.actor, { type: 'api_key', id: adminKeyId, email: null });
    assert.equal(createdByKey!.address, KEY_AT);
    assert.deepEqual(revokedByKey!.target, { type: 'api_key', id: byKeyMade.body.id });

    assert.deepEqual(roleChanged!.details, {
      email: invited.body.member.email,
      from: 'admin',
      to: 'viewer',
      keys_revoked: [],
    });
    assert.deepEqual(revokedWithMember!.target, { type: 'api_key', id: minted.body.id });
    assert.deepEqual(revokedWithMember!.details, { member_id: admin.id });
    assert.deepEqual(removed!.actor.id, owner.id);
    assert.deepEqual(removed!.details, { email: admin.email, role: 'admin', keys_revoked: [minted.body.id] });
    for (const e of entries) {
      assert.equal(typeof e.id, 'string');
      const at = Date.parse(e.at);
      assert.ok(at >= started - 1000 && at <= Date.now() + 1000, e.at);
    }
  });

  it("records destinations, settings, exports and erasures, never an end-user's id or a destination's secret", async () => {
    const admin = { key: adminKey, headers: byKey };
    const before = (await log()).total;
    const hook = await call<{ id: string }>(api, 'POST', '/webhooks', {
      ...admin,
      json: { url: 'https://hooks.example.com/services/T0/B0/s3cr3t-path', events: ['job.completed'] },
    });
    assert.equal(hook.status, 201);
    const changed = await call(api, 'PATCH', `/webhooks/${hook.body.id}`, { ...admin, json: { status: 'paused' } });
    assert.equal(changed.status, 200);
    assert.equal((await call(api, 'DELETE', `/webhooks/${hook.body.id}`, admin)).status, 200);
    const integration = { url: 'https://crm.example.com/pi?token=s3cr3t-query' };
    assert.equal(
      (await call(api, 'PUT', '/settings/integrations/webhook', { ...admin, json: integration })).status,
      201,
    );
    assert.equal(
      (await call(api, 'PUT', '/settings/integrations/webhook', { ...admin, json: integration })).status,
      200,
    );
    assert.equal((await call(api, 'DELETE', '/settings/integrations/webhook', admin)).status, 200);
    const report = await call<{ id: string }>(api, 'POST', '/analytics/reports', {
      ...admin,
      json: { name: 'weekly', type: 'friction', schedule: 'weekly', recipients: ['ops@example.com'] },
    });
    assert.equal((await call(api, 'DELETE', `/analytics/reports/${report.body.id}`, admin)).status, 200);
    const warehouse = await call<{ id: string }>(api, 'POST', '/analytics/export/warehouse', {
      ...admin,
      json: {
        destination: 'postgres',
        credentials: { account: 'warehouse.example.com', database: 'analytics', password: 's3cr3t-password' },
        tables: ['events'],
      },
    });
    assert.equal(warehouse.status, 202);
    const download = await call(api, 'GET', '/analytics/export/events?format=json&date_range=last_7_days', admin);
    assert.equal(download.status, 200);
    const settings = { quadrant: { visibilityRate: 0.4 } };
    assert.equal((await call(api, 'PUT', '/settings/analytics', { ...admin, json: settings })).status, 200);
    assert.equal(
      (await call(api, 'PUT', '/settings/retention', { ...admin, json: { rawEventsDays: 400 } })).status,
      200,
    );
    const goals = { goals: ['signup_completed'] };
    assert.equal((await call(api, 'PUT', '/settings/goals', { ...admin, json: goals })).status, 200);
    const erased = await call(api, 'DELETE', '/users/u-erased-person-42', admin);
    assert.equal(erased.status, 200);

    const { entries, total } = await log('?per_page=100');
    assert.equal(total - before, 14);
    const mine = entries.slice(0, 14).reverse();
    assert.deepEqual(
      mine.map((e) => [e.action, e.target.id]),
      [
        ['webhook.created', hook.body.id],
        ['webhook.changed', hook.body.id],
        ['webhook.deleted', hook.body.id],
        ['integration.connected', null],
        ['integration.changed', null],
        ['integration.disconnected', null],
        ['report.created', report.body.id],
        ['report.deleted', report.body.id],
        ['export.warehouse_queued', warehouse.body.id],
        ['export.events_requested', null],
        ['settings.changed', 'analytics'],
        ['settings.changed', 'retention'],
        ['settings.changed', 'goals'],
        ['user.erased', null],
      ],
    );
    assert.deepEqual(mine[0]!.details, { url: 'https://hooks.example.com', events: ['job.completed'] });
    assert.deepEqual(mine[3]!.details, { url: 'https://crm.example.com' });
    assert.deepEqual(mine[8]!.details, { destination: 'postgres', tables: ['events'] });
    assert.deepEqual(mine[10]!.details, settings);
    assert.deepEqual(mine[12]!.details, goals);
    assert.deepEqual(mine[13]!.details, { rows_deleted: (erased.body as { rows_deleted: number }).rows_deleted });
    assert.ok(mine.every((e) => e.actor.type === 'api_key' && e.actor.id === adminKeyId && e.address === KEY_AT));
    const stored = JSON.stringify(
      (await services().db.query('select * from audit_log where project_id = $1', [projectId])).rows,
    );
    for (const secret of ['u-erased-person-42', 's3cr3t']) assert.ok(!stored.includes(secret), secret);
  });

  it('filters by actor, action and date, pages like every list, and refuses what it cannot filter by', async () => {
    const all = await log('?per_page=100');
    const ownerEntry = all.entries.find((e) => e.action === 'member.invited')!;
    const byOwner = await log(`?actor=${encodeURIComponent(ownerEntry.actor.email!.toUpperCase())}`);
    assert.ok(byOwner.total > 0);
    assert.ok(byOwner.entries.every((e) => e.actor.id === ownerEntry.actor.id));
    const byTheKey = await log(`?actor=${adminKeyId}&per_page=100`);
    assert.equal(byTheKey.total, all.entries.filter((e) => e.actor.id === adminKeyId).length);

    const keys = await log('?action=api_key');
    assert.deepEqual([...new Set(keys.entries.map((e) => e.action))].sort(), ['api_key.created', 'api_key.revoked']);
    const created = await log('?action=api_key.created');
    assert.equal(created.total, 2);

    const today = new Date().toISOString().slice(0, 10);
    const past = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    assert.equal((await log(`?date_range=custom&start=${today}&end=${today}`)).total, all.total);
    assert.equal((await log(`?date_range=custom&start=${past}&end=${past}`)).total, 0);
    assert.equal((await log('?date_range=last_7_days')).total, all.total);

    const second = await log('?per_page=2&page=2');
    assert.deepEqual(
      { ...second, entries: second.entries.map((e) => e.id) },
      {
        entries: all.entries.slice(2, 4).map((e) => e.id),
        total: all.total,
        page_number: 2,
        page: 2,
        per_page: 2,
        next: all.total > 4 ? 3 : null,
      },
    );

    for (const [query, field, reason] of [
      ['?action=api_key.stolen', 'action', 'invalid_value'],
      ['?start=2026-01-01', 'start', 'not_allowed'],
      ['?date_range=custom&start=2026-13-01&end=2026-12-01', 'start', 'invalid_format'],
      ['?actor=', 'actor', 'invalid_value'],
      ['?who=me', 'who', 'unknown_parameter'],
    ]) {
      const refused = await call(api, 'GET', `/audit-log${query}`, { key: adminKey });
      assert.equal(refused.status, 400, query);
      assert.deepEqual(
        { field: errorOf(refused).details.field, reason: errorOf(refused).details.reason },
        { field, reason },
        query,
      );
    }
    const viewer = await signedIn('viewer', OWNER_AT);
    assert.equal((await call(api, 'GET', '/audit-log', { headers: viewer.as })).status, 403);
    const [, readKey] = (await newProject(['admin'], ['analytics:read'])).keys;
    assert.equal((await call(api, 'GET', '/audit-log', { key: readKey })).status, 403);
  });

  it("keeps each project's log to itself", async () => {
    const other = await newProject(['admin']);
    const theirs = await call<Log>(api, 'GET', '/audit-log', { key: other.keys[0] });
    assert.equal(theirs.body.total, 0);
  });
});
