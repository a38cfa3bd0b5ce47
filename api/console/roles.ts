import { SCOPES, type Scope } from '../../store/api-keys.js';

/** A console member's role, from most to least trusted (docs/adr/0083-console-roles-and-audit-log.md). */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a console member may hold: the API keys' scopes, and finer ones that only people hold
 * (a key is either an admin or not; a person may define jobs without handing out data):
 * - `account`: their own session, password and stream token, and the list of members;
 * - `definitions:read` / `definitions:write`: the jobs, cohorts and goals the analytics are asked about;
 * - `export`: the raw events as a file (every user's id and properties at once);
 * - `members`: invite, remove, change the role of, and issue sign-in links for console members.
 * `admin` holds every one of them but `members`.
 */
export type ConsoleScope = Scope | 'account' | 'definitions:read' | 'definitions:write' | 'export' | 'members';

export const ROLE_SCOPES: Record<Role, readonly ConsoleScope[]> = {
  // Everything, and who else gets in.
  owner: ['admin', 'members'],
  // Keys, destinations (webhooks, warehouse exports, reports and their recipients, integrations),
  // settings, users and erasure: everything but the members.
  admin: ['admin'],
  // Reads the analytics, manages jobs and cohorts, downloads raw events; no keys, destinations or settings.
  member: ['account', 'analytics:read', 'definitions:read', 'definitions:write', 'export'],
  // Reads the analytics and what they are computed for; changes nothing.
  viewer: ['account', 'analytics:read', 'definitions:read'],
};

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export function roleHolds(role: Role, need: ConsoleScope): boolean {
  const held = ROLE_SCOPES[role];
  return held.includes(need) || (need !== 'members' && held.includes('admin'));
}

/**
 * The API key scopes a role's session counts as where keys' scopes are read (the rate limit's
 * class of the caller, answers that show more to admins).
 */
export function keyScopesOf(role: Role): Scope[] {
  return roleHolds(role, 'admin') ? ['admin'] : SCOPES.filter((s) => s !== 'admin' && roleHolds(role, s));
}

/**
 * Routes whose console need differs from their key scope, by "METHOD /path" as the routes declare
 * them: an admin-scoped route that members or viewers may use, a read that viewers may not, and the
 * console's own routes. Every other route needs of a person what it needs of a key.
 */
const CONSOLE_NEEDS: Record<string, ConsoleScope> = {
  'GET /jobs': 'definitions:read',
  'GET /jobs/:job_id': 'definitions:read',
  'POST /jobs': 'definitions:write',
  'PATCH /jobs/:job_id': 'definitions:write',
  'DELETE /jobs/:job_id': 'definitions:write',
  'GET /cohorts': 'definitions:read',
  'GET /cohorts/:cohort_id': 'definitions:read',
  'GET /cohorts/:cohort_id/users': 'definitions:read',
  'POST /cohorts': 'definitions:write',
  'DELETE /cohorts/:cohort_id': 'definitions:write',
  'GET /settings/goals': 'definitions:read',
  'GET /analytics/export/events': 'export',
  'POST /console/members': 'members',
  'PATCH /console/members/:member_id': 'members',
  'DELETE /console/members/:member_id': 'members',
  'POST /console/members/:member_id/sign-in-link': 'members',
};

/** The routes CONSOLE_NEEDS names (a test holds them to the route table). */
export const CONSOLE_NEED_ROUTES = Object.keys(CONSOLE_NEEDS);

/** What a console member needs for a route that requires `scope` of a key. */
export function consoleNeed(route: { method: string; path: string; scope: Scope }): ConsoleScope {
  const listed = CONSOLE_NEEDS[`${route.method} ${route.path}`];
  if (listed) return listed;
  return route.path.startsWith('/console/') ? 'account' : route.scope;
}
