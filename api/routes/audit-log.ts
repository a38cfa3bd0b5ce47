import { AUDIT_ACTIONS, AUDIT_TARGETS, type AuditEntry, auditPage } from '../../store/audit-log.js';
import { DATE_RANGES, parseDateRange } from '../../domain/date-range.js';
import type { Pool } from '../../lib/db.js';
import { fieldError } from '../errors.js';
import { PAGING_PARAMS, pageFields, paging, stringParam } from '../query.js';
import { type Route, defineRoute } from '../route.js';

// bigint: read as a number here (lib/db.ts), answered as a string like every id.

const present = (row: AuditEntry) => ({
  id: String(row.entry_id),
  at: row.at.toISOString(),
  actor: { type: row.actor_type, id: row.actor_id, email: row.actor_email },
  action: row.action,
  target: { type: row.target_type, id: row.target_id },
  details: row.details,
  address: row.address,
});

const ACTION_FILTERS: readonly string[] = [...AUDIT_ACTIONS, ...AUDIT_TARGETS];

/** Settings → Audit log: who changed what, when, from where. */
export function auditLogRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/audit-log',
      tag: 'Audit log',
      summary:
        'Every administrative change of the project, newest first: who (console member or API key), what, when and from which client address',
      scope: 'admin',
      query: [
        ...PAGING_PARAMS,
        {
          name: 'actor',
          description: "a console member's id or e-mail address, or an API key's id",
          schema: { type: 'string', maxLength: 254 },
        },
        {
          name: 'action',
          description: `an action, or a target type for all of its actions: ${AUDIT_TARGETS.join(', ')}`,
          schema: { enum: ACTION_FILTERS },
        },
        {
          name: 'date_range',
          description: 'last_7_days, last_30_days, last_90_days (ending today, UTC) or custom; all time when absent',
          schema: { enum: [...DATE_RANGES] },
        },
        { name: 'start', description: 'YYYY-MM-DD with date_range=custom', schema: { type: 'string', format: 'date' } },
        { name: 'end', description: 'YYYY-MM-DD with date_range=custom', schema: { type: 'string', format: 'date' } },
      ],
      success: {
        status: 200,
        schema: 'AuditLog',
        description: '{ entries, total, page_number, page, per_page, next }',
      },
      errors: { 400: 'Invalid parameters' },
      async handle(ctx) {
        const paged = paging(ctx);
        const action = stringParam(ctx, 'action', ACTION_FILTERS);
        const actor = stringParam(ctx, 'actor');
        if (actor !== undefined && (actor === '' || actor.length > 254)) {
          throw fieldError('actor', 'invalid_value', 'actor is a member id or e-mail address, or a key id.');
        }
        const rangeName = stringParam(ctx, 'date_range');
        const start = stringParam(ctx, 'start');
        const end = stringParam(ctx, 'end');
        let range: { start: string; end: string } | undefined;
        if (rangeName !== undefined) {
          const parsed = parseDateRange(rangeName, start, end);
          if ('field' in parsed) throw fieldError(parsed.field, parsed.reason, parsed.message);
          range = parsed.range;
        } else if (start !== undefined || end !== undefined) {
          throw fieldError(
            start !== undefined ? 'start' : 'end',
            'not_allowed',
            'start and end go with date_range=custom.',
          );
        }
        const { rows, total } = await auditPage(db, ctx.state.auth.projectId, { actor, action, range }, paged);
        ctx.body = { entries: rows.map(present), ...pageFields(paged, total) };
      },
    }),
  ];
}
