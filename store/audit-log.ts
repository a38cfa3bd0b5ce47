import type pg from 'pg';
import { type PageWindow, pageOf } from './pages.js';

/**
 * Every administrative change the audit log records, as `<what it changed>.<what happened>`; the
 * part before the dot is the entry's target type.
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
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a request's authentication found (api/auth.ts): the key or console member, and the client address. */
export interface AuditSource {
  ip: string;
  state: { auth: { projectId: string; keyId: string }; console?: { userId: string; email: string } };
}

export interface AuditRow {
  project_id: string;
  actor_type: 'member' | 'api_key';
  actor_id: string;
  actor_email: string | null;
  action: AuditAction;
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown>;
  address: string;
}

/**
 * A destination is kept as its origin: a webhook URL's path or query often is its credential
 * (Slack's, Zapier's), and the log outlives the destination.
 */
function originOf(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The row an entry is stored as (free of I/O): a `url` among the details is kept as its origin only. */
export function auditRow(
  source: AuditSource,
  action: AuditAction,
  targetId: string | null,
  details: Record<string, unknown>,
): AuditRow {
  const member = source.state.console;
  const kept = 'url' in details ? { ...details, url: originOf(details.url) } : details;
  return {
    project_id: source.state.auth.projectId,
    actor_type: member ? 'member' : 'api_key',
    actor_id: member ? member.userId : source.state.auth.keyId,
    actor_email: member?.email ?? null,
    action,
    target_type: action.slice(0, action.indexOf('.')),
    target_id: targetId,
    details: kept,
    address: source.ip,
  };
}

/**
 * Records who did `action` (to `targetId`), when and from where. Called by the handler once the
 * change is made; given the transaction's client, the entry commits with the change. Never pass
 * an end-user's id: the log is not erased with them.
 */
export async function audit(
  db: pg.Pool | pg.PoolClient,
  source: AuditSource,
  action: AuditAction,
  targetId: string | null = null,
  details: Record<string, unknown> = {},
): Promise<void> {
  const row = auditRow(source, action, targetId, details);
  await db.query(
    `insert into audit_log (project_id, actor_type, actor_id, actor_email, action, target_type, target_id, details, address)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.project_id,
      row.actor_type,
      row.actor_id,
      row.actor_email,
      row.action,
      row.target_type,
      row.target_id,
      row.details,
      row.address,
    ],
  );
}

/** What GET /audit-log narrows the log to; every part optional. */
export interface AuditFilter {
  /** a member's id or e-mail address, or a key's id */
  actor?: string;
  /** an action, or a target type for all of its actions (`api_key`) */
  action?: string;
  /** UTC days, inclusive */
  range?: { start: string; end: string };
}

/** The target types, each the part of its actions before the dot. */
export const AUDIT_TARGETS = [...new Set(AUDIT_ACTIONS.map((a) => a.slice(0, a.indexOf('.'))))];

/** The where clause (`project_id = $1` first) and its values for a filter; free of I/O. */
export function auditWhere(projectId: string, filter: AuditFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [projectId];
  const clauses = ['project_id = $1'];
  if (filter.actor !== undefined) {
    params.push(filter.actor);
    clauses.push(`(actor_id = $${params.length} or actor_email = lower($${params.length}))`);
  }
  if (filter.action !== undefined) {
    params.push(filter.action);
    clauses.push(filter.action.includes('.') ? `action = $${params.length}` : `target_type = $${params.length}`);
  }
  if (filter.range) {
    params.push(filter.range.start, filter.range.end);
    const [start, end] = [params.length - 1, params.length];
    clauses.push(`at >= $${start}::date at time zone 'UTC' and at < ($${end}::date + 1) at time zone 'UTC'`);
  }
  return { where: clauses.join(' and '), params };
}

/** An entry as the log shows it. */
export type AuditEntry = AuditRow & { entry_id: number; at: Date };

/** Reads a page of the project's audit log narrowed by `filter`, newest first, and its total. */
export async function auditPage(db: pg.Pool, projectId: string, filter: AuditFilter, page: PageWindow) {
  const { where, params } = auditWhere(projectId, filter);
  return pageOf<AuditEntry>(
    db,
    { columns: '*', from: 'audit_log', where, order: 'at desc, entry_id desc' },
    params,
    page,
  );
}
