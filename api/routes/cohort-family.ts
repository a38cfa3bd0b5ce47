import { round } from '../../domain/metrics.js';
import type { Pool } from '../../lib/db.js';
import type { Scope } from '../../store/api-keys.js';
import { notFound } from '../errors.js';
import { PAGING_PARAMS, type Paging, pageFields, paging } from '../query.js';
import {
  type BehaviouralRow,
  type CohortRow,
  type CustomRow,
  behaviouralMemberPage,
  cohortById,
  customCohortSize,
  customMemberPage,
} from '../../store/cohorts.js';
import { type Route, defineRoute, pathParam } from '../route.js';

/**
 * One cohort family (docs/adr/0043-one-cohort-family.md): every cohort, custom or behavioural,
 * is a row of `cohorts` (one id space per project); a behavioural cohort's computed numbers join it
 * from behavioural_cohorts. What the admin routes (/cohorts) and the analytics routes
 * (/analytics/cohorts) both read lives here.
 */

export type CohortType = 'custom' | 'behavioral';
export const COHORT_TYPES: readonly CohortType[] = ['behavioral', 'custom'];

export async function findCohort(db: Pool, projectId: string, cohortId: string): Promise<CohortRow> {
  const cohort = await cohortById(db, projectId, cohortId);
  if (!cohort) throw notFound('cohort');
  return cohort;
}

export const rounded = (values: Record<string, number>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, round(value)]));

/** A custom cohort's size now (a behavioural cohort's is stored with it). */
export async function sizeOf(db: Pool, projectId: string, cohort: CohortRow): Promise<number> {
  if (cohort.type === 'behavioral') return cohort.size;
  return customCohortSize(db, projectId, cohort.criteria);
}

/** A cohort as every list and lookup shows it: a behavioural one is the spec's Cohort record. */
export function presentCohort(row: CohortRow, size: number) {
  const common = { id: row.cohort_id, name: row.name, type: row.type };
  const created_at = row.created_at.toISOString();
  if (row.type === 'custom') return { ...common, criteria: row.criteria, size, created_at };
  return {
    ...common,
    size,
    percentage: round(row.percentage),
    characteristics: rounded(row.characteristics),
    churn_risk: row.churn_risk,
    expansion_opportunity: row.expansion_opportunity,
    created_at,
  };
}

/** A behavioural cohort's members with the values they were clustered on. */
async function behaviouralMembers(db: Pool, projectId: string, cohort: BehaviouralRow, paged: Paging) {
  const { rows, total } = await behaviouralMemberPage(db, projectId, cohort.cohort_id, paged);
  return { users: rows.map((r) => ({ user_id: r.user_id, ...rounded(r.features) })), total };
}

/** A custom cohort's members with the metrics its criteria are evaluated on. */
async function customMembers(db: Pool, projectId: string, cohort: CustomRow, paged: Paging) {
  const { rows, total } = await customMemberPage(db, projectId, cohort.criteria, paged);
  return { users: rows.map((r) => ({ ...r, last_seen_at: r.last_seen_at?.toISOString() ?? null })), total };
}

/**
 * A cohort's members, one page at a time, sorted by user_id. The same answer under /cohorts (admin)
 * and /analytics/cohorts (analytics:read).
 */
export function cohortUsersRoute(db: Pool, at: { path: string; tag: string; scope: Scope }): Route {
  return defineRoute({
    method: 'GET',
    ...at,
    summary:
      "A cohort's members: a behavioural cohort's with their clustered values, a custom cohort's with their metrics",
    query: PAGING_PARAMS,
    refuses: {
      date_range:
        'date_range does not apply to a member list: it lists the members as they are now. ' +
        'GET /analytics/cohorts/{id}?date_range=… counts the members with a session in a range.',
    },
    success: {
      status: 200,
      schema: 'CohortUsers',
      description: '{ cohort_id, type, users, total, page_number, page, per_page, next }',
    },
    errors: { 404: 'No such cohort in this project' },
    async handle(ctx) {
      const paged = paging(ctx);
      const { projectId } = ctx.state.auth;
      const cohort = await findCohort(db, projectId, pathParam(ctx, 'cohort_id'));
      const { users, total } =
        cohort.type === 'behavioral'
          ? await behaviouralMembers(db, projectId, cohort, paged)
          : await customMembers(db, projectId, cohort, paged);
      ctx.body = {
        cohort_id: cohort.cohort_id,
        type: cohort.type,
        users,
        ...pageFields(paged, total),
      };
    },
  });
}
