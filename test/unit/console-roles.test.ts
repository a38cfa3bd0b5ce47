import assert from 'node:assert/strict';
import { type AppDeps, routeTable } from '../../api/app.js';
import { CONSOLE_NEED_ROUTES, ROLES, type Role, consoleNeed, keyScopesOf, roleHolds } from '../../api/console/roles.js';

/** The route table as the API mounts it; routes are only declared here, never called. */
const routes = routeTable({ db: {}, exports: {}, health: {}, log: { child: () => ({}) } } as unknown as AppDeps);

/** Which roles may call a route, as a console member. */
function allowed(method: string, path: string): Role[] {
  const route = routes.find((r) => r.method === method && r.path === path);
  if (!route?.scope) throw new Error(`no keyed route ${method} ${path}`);
  const need = consoleNeed({ method, path, scope: route.scope });
  return ROLES.filter((role) => roleHolds(role, need));
}

describe('console roles', () => {
  it('names only routes that exist', () => {
    const declared = new Set(routes.map((r) => `${r.method} ${r.path}`));
    assert.deepEqual(
      CONSOLE_NEED_ROUTES.filter((r) => !declared.has(r)),
      [],
    );
  });

  it('keys, destinations, settings, users and the audit log: owners and admins only', () => {
    for (const [method, path] of [
      ['GET', '/api-keys'],
      ['POST', '/api-keys'],
      ['DELETE', '/api-keys/:key_id'],
      ['POST', '/webhooks'],
      ['PATCH', '/webhooks/:webhook_id'],
      ['PUT', '/settings/integrations/webhook'],
      ['POST', '/analytics/reports'],
      ['POST', '/analytics/export/warehouse'],
      ['PUT', '/settings/retention'],
      ['PUT', '/settings/goals'],
      ['DELETE', '/users/:user_id'],
      ['GET', '/audit-log'],
    ] as const) {
      assert.deepEqual(allowed(method, path), ['owner', 'admin'], `${method} ${path}`);
    }
  });

  it('members: owners only', () => {
    for (const [method, path] of [
      ['POST', '/console/members'],
      ['PATCH', '/console/members/:member_id'],
      ['DELETE', '/console/members/:member_id'],
      ['POST', '/console/members/:member_id/sign-in-link'],
    ] as const) {
      assert.deepEqual(allowed(method, path), ['owner'], `${method} ${path}`);
    }
  });

  it('jobs and cohorts: members change them, viewers read them; raw events: not viewers', () => {
    assert.deepEqual(allowed('POST', '/jobs'), ['owner', 'admin', 'member']);
    assert.deepEqual(allowed('DELETE', '/cohorts/:cohort_id'), ['owner', 'admin', 'member']);
    assert.deepEqual(allowed('GET', '/jobs'), ROLES);
    assert.deepEqual(allowed('GET', '/cohorts/:cohort_id/users'), ROLES);
    assert.deepEqual(allowed('GET', '/analytics/features'), ROLES);
    assert.deepEqual(allowed('GET', '/analytics/export/events'), ['owner', 'admin', 'member']);
  });

  it('every role has its own session, password and stream; only admins write events', () => {
    for (const [method, path] of [
      ['GET', '/console/session'],
      ['PUT', '/console/password'],
      ['POST', '/console/stream-token'],
      ['GET', '/console/members'],
    ] as const) {
      assert.deepEqual(allowed(method, path), ROLES, `${method} ${path}`);
    }
    assert.deepEqual(allowed('POST', '/events'), ['owner', 'admin']);
  });

  it('counts as the key scopes the role holds', () => {
    assert.deepEqual(
      ROLES.map((r) => keyScopesOf(r)),
      [['admin'], ['admin'], ['analytics:read'], ['analytics:read']],
    );
  });
});
