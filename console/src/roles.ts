/**
 * What each console role may do, as the console needs to know it to hide what a role cannot use.
 * The server decides (api/console/roles.ts); these lists mirror its table and
 * test/integration/console-roles.test.ts holds them to it. Free of imports, so Node reads it too.
 */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do, in a line (Settings → Members). */
export const ROLE_MEANING: Record<Role, string> = {
  owner: 'everything, and who else gets in: invites, removes and changes the roles of people',
  admin: 'API keys, destinations (webhooks, integrations, reports, exports), settings, users and the audit log',
  member: 'reads the analytics, manages jobs and cohorts, downloads raw events',
  viewer: 'reads the analytics, jobs and cohorts; changes nothing',
};

/** The roles that hold the `admin` scope (keys, destinations, settings, the audit log). */
export const ADMIN_ROLES: readonly Role[] = ['owner', 'admin'];
/** The roles that create, change and delete jobs and cohorts (`definitions:write`); viewers only read them. */
export const WRITER_ROLES: readonly Role[] = ['owner', 'admin', 'member'];
/** The roles that manage the members (invite, remove, change roles, issue sign-in links). */
export const MEMBER_ROLES: readonly Role[] = ['owner'];

/** "an owner", "an owner or an admin", "an owner, an admin or a member". */
export function rolesInWords(roles: readonly string[]): string {
  const named = roles.map((r) => `${/^[aeiou]/.test(r) ? 'an' : 'a'} ${r}`);
  return named.length <= 1 ? (named[0] ?? 'nobody') : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
}

/** A role refusal from the server (403, details.reason "role"): the caller's role and those that may. */
export function roleRefusal(err: unknown): { role: string; allowed: string[] } | undefined {
  // An ApiFailure (console/src/api.ts), read by its shape.
  const { status, details } = (err ?? {}) as { status?: unknown; details?: Record<string, unknown> };
  if (status !== 403 || details?.reason !== 'role') return undefined;
  const allowed = details.allowed_roles;
  return {
    role: typeof details.role === 'string' ? details.role : 'member',
    allowed: Array.isArray(allowed) ? allowed.filter((r): r is string => typeof r === 'string') : [],
  };
}

/** Why a role may not do something, naming the roles that may: "Only an owner or an admin may …; you are a viewer." */
export const refusalText = (what: string, role: string, allowed: readonly string[]): string =>
  `Only ${rolesInWords(allowed)} may ${what}; you are ${rolesInWords([role])}.`;
