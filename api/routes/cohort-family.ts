import { type CohortCriteria, compileCohortCriteria } from '../../domain/cohorts/criteria.js';
import { round } from '../../domain/metrics.js';
import type { Pool } from '../../lib/db.js';
import type { Scope } from '../../store/api-keys.js';
import { notFound } from '../errors.js';
import { PAGING_PARAMS, type Paging, pageFields, paging } from '../query.js';
import { pageOf } from '../../store/pages.js';
import { type Route, defineRoute, pathParam } from '../route.js';

/**
 * One cohort family (docs/adr/0043-one-cohort-family.md): every cohort, custom or behavioural,
 * is a row of `cohorts` (one id space per project); a behavioural cohort's computed numbers join it
 * from behavioural_cohorts. What the admin routes (/cohorts) and the analytics routes
 * (/analytics/cohorts) both read lives here.
 */

export type CohortType = 'custom' | 'behavioral';
export const COHORT_TYPES: readonly CohortType[] = ['behavioral', 'custom'];

interface Common {
  cohort_id: string;
  name: string;
  created_at: Date;
}
export interface CustomRow extends Common {
  type: 'custom';
  criteria: CohortCriteria;
}
export interface BehaviouralRow extends Common {
  type: 'behavioral';
  size: number;
  percentage: number;
  characteristics: Record<string, number>;
  traits: Record<string, number>;
  churn_risk: string;
  expansion_opportunity: string;
  /** Counted with the cohort by its worker, like its members. */
  top_features: { feature: string; users: number }[];
}
export type CohortRow = CustomRow | BehaviouralRow;

/**
 * The family's rows, for `select <columns> from <from> where <visible> and …`. A behavioural cohort
 * is seen with its numbers only (its registry row and its numbers are written in one transaction).
 */
export const COHORT_ROWS = {
  columns: `c.cohort_id, c.name, c.type, c.criteria, c.created_at, b.size, b.percentage, b.characteristics, b.traits,
            b.churn_risk, b.expansion_opportunity, b.top_features`,
  from: 'cohorts c left join behavioural_cohorts b using (project_id, cohort_id)',
  visible: `(c.type = 'custom' or b.cohort_id is not null)`,
};

export async function findCohort(db: Pool, projectId: string, cohortId: string): Promise<CohortRow> {
  const { rows } = await db.query<CohortRow>(
    `select ${COHORT_ROWS.columns} from ${COHORT_ROWS.from}
     where ${COHORT_ROWS.visible} and c.project_id = $1 and c.cohort_id = $2`,
    [projectId, cohortId],
  );
  if (!rows[0]) throw notFound('cohort');
  return rows[0];
}

export const rounded = (values: Record<string, number>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, round(value)]));

/** A custom cohort's members are the users whose pipeline metrics (user_metrics m) meet every condition now. */
function membership(projectId: string, criteria: CohortCriteria) {
  const { sql, params } = compileCohortCriteria(criteria, 2);
  return { where: `m.project_id = $1 and ${sql}`, params: [projectId, ...params] };
}

/** The user ids of a cohort's members, as a subquery with its parameters ($1 is the project). */
export function membersOf(projectId: string, cohort: CohortRow): { sql: string; params: unknown[] } {
  if (cohort.type === 'behavioral') {
    return {
      sql: 'select user_id from behavioural_cohort_members where project_id = $1 and cohort_id = $2',
      params: [projectId, cohort.cohort_id],
    };
  }
  const { where, params } = membership(projectId, cohort.criteria);
  return { sql: `select m.user_id from user_metrics m where ${where}`, params };
}

/** A custom cohort's size now (a behavioural cohort's is stored with it). */
export async function sizeOf(db: Pool, projectId: string, cohort: CohortRow): Promise<number> {
  if (cohort.type === 'behavioral') return cohort.size;
  const { where, params } = membership(projectId, cohort.criteria);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from user_metrics m where ${where}`,
    params,
  );
  return rows[0]!.n;
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
  const { rows, total } = await pageOf<{ user_id: string; features: Record<string, number> }>(
    db,
    {
      columns: 'user_id, features',
      from: 'behavioural_cohort_members',
      where: 'project_id = $1 and cohort_id = $2',
      order: 'user_id',
    },
    [projectId, cohort.cohort_id],
    paged,
  );
  return { users: rows.map((r) => ({ user_id: r.user_id, ...rounded(r.features) })), total };
}

/** A custom cohort's members with the metrics its criteria are evaluated on. */
async function customMembers(db: Pool, projectId: string, cohort: CustomRow, paged: Paging) {
  const { where, params } = membership(projectId, cohort.criteria);
  const { rows, total } = await pageOf<{ user_id: string; last_seen_at: Date | null }>(
    db,
    {
      columns: 'm.user_id, m.events, m.days_active, m.sessions, m.features_used, m.friction_index, m.last_seen_at',
      from: 'user_metrics m',
      where,
      order: 'm.user_id',
    },
    params,
    paged,
  );
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
