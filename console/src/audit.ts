/**
 * The audit log as the console asks for it and shows it (GET /v1/audit-log). Free of imports, so
 * Node reads it too: test/integration/console-roles.test.ts holds AUDIT_ACTIONS to the server's
 * list (store/audit-log.ts).
 */

export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'member.invited',
  'member.role_changed',
  'member.removed',
  'member.sign_in_link_issued',
  'webhook.created',
  'webhook.changed',
  'webhook.deleted',
  'integration.connected',
  'integration.changed',
  'integration.disconnected',
  'report.created',
  'report.deleted',
  'export.warehouse_queued',
  'export.events_requested',
  'settings.changed',
  'user.erased',
] as const;

/** What the part of an action before its dot (the target type) is called in words. */
const TARGET_WORDS: Record<string, string> = {
  api_key: 'API key',
  member: 'Member',
  webhook: 'Webhook',
  integration: 'Integration',
  report: 'Report',
  export: 'Export',
  settings: 'Settings',
  user: 'User',
};

export const targetOf = (action: string): string => action.split('.')[0] ?? action;

/** The target types in the order of their first action: a filter by type takes all of its actions. */
export const AUDIT_TARGETS = [...new Set(AUDIT_ACTIONS.map(targetOf))];

export const targetWords = (type: string): string => TARGET_WORDS[type] ?? type.replace(/_/g, ' ');

/** "member.sign_in_link_issued" → "Member sign in link issued". */
export function actionWords(action: string): string {
  const dot = action.indexOf('.');
  if (dot < 0) return targetWords(action);
  return `${targetWords(action.slice(0, dot))} ${action.slice(dot + 1).replace(/_/g, ' ')}`;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: 'member' | 'api_key'; id: string; email: string | null };
  action: string;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
  address: string | null;
}

/**
 * A page of the log. Lists answer `page` and, under the paging convention of
 * docs/adr/0087-one-paging-convention.md, `page_number` and `next` as well: either is read.
 */
export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page?: number;
  page_number?: number;
  per_page: number;
  next?: number | null;
}

/** The page number an answer is, and whether another follows it. */
export function pageOf(answer: AuditPage): { page: number; hasNext: boolean } {
  const page = answer.page_number ?? answer.page ?? 1;
  const hasNext = answer.next !== undefined ? answer.next !== null : page * answer.per_page < answer.total;
  return { page, hasNext };
}

/** The filters of the Audit log page, as kept in its address; '' is "any". */
export interface AuditFilters {
  actor: string;
  action: string;
  /** '' (all time), last_7_days, last_30_days, last_90_days or custom (with start and end) */
  range: string;
  start: string;
  end: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', range: '', start: '', end: '' };

export const filtered = (f: AuditFilters): boolean => !!(f.actor || f.action || f.range);

/**
 * The query of the page's address and of the API call alike (the same names): only what is set.
 * `page` rather than `page_number`: every version of the route takes it.
 */
export function auditQuery(f: AuditFilters, page = 1, perPage?: number): URLSearchParams {
  const query = new URLSearchParams();
  if (f.actor) query.set('actor', f.actor);
  if (f.action) query.set('action', f.action);
  if (f.range) {
    query.set('date_range', f.range);
    if (f.range === 'custom') {
      query.set('start', f.start);
      query.set('end', f.end);
    }
  }
  if (page > 1) query.set('page', String(page));
  if (perPage !== undefined) query.set('per_page', String(perPage));
  return query;
}

/** The filters and page an address holds (its query parameters). */
export function filtersOf(query: Record<string, string | undefined>): { filters: AuditFilters; page: number } {
  const page = Number(query.page);
  return {
    filters: {
      actor: query.actor ?? '',
      action: query.action ?? '',
      range: query.date_range ?? '',
      start: query.start ?? '',
      end: query.end ?? '',
    },
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** An entry's details in a line: `to: viewer · keys_revoked: k1, k2`. */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${valueText(value)}`)
    .join(' · ');
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.length > 0 ? value.map(valueText).join(', ') : 'none';
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '–';
  return JSON.stringify(value);
}
