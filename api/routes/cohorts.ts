import { type CohortCriteria, checkCohortCriteria, compileCohortCriteria } from '../../domain/cohorts/criteria.js';
import { type Pool, inTransaction } from '../../lib/db.js';
import { PROJECT_LIMITS } from '../../domain/limits.js';
import { newId } from '../../lib/ids.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { PAGING_PARAMS, pageOf, paging } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

interface CohortRow {
  cohort_id: string;
  name: string;
  type: string;
  criteria: CohortCriteria;
  created_at: Date;
}

/** Members are the users whose pipeline metrics meet every condition (user_metrics). */
function membership(projectId: string, criteria: CohortCriteria) {
  const { sql, params } = compileCohortCriteria(criteria, 2);
  return { where: `m.project_id = $1 and ${sql}`, params: [projectId, ...params] };
}

async function size(db: Pool, projectId: string, criteria: CohortCriteria): Promise<number> {
  const { where, params } = membership(projectId, criteria);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from user_metrics m where ${where}`,
    params,
  );
  return rows[0]!.n;
}

function presentCohort(row: CohortRow, members: number) {
  return {
    id: row.cohort_id,
    name: row.name,
    type: row.type,
    criteria: row.criteria,
    size: members,
    created_at: row.created_at.toISOString(),
  };
}

export function cohortRoutes(db: Pool): Route[] {
  return [
    defineRoute<{ name: string; criteria: CohortCriteria }>({
      method: 'POST',
      path: '/cohorts',
      tag: 'Cohorts',
      summary: 'Define a custom cohort over user behaviour metrics',
      scope: 'admin',
      body: 'cohort-create.json',
      success: { status: 201, schema: 'Cohort', description: '{ id, name, type: custom, criteria, size, created_at }' },
      errors: { 409: 'The project keeps the most custom cohorts it may (details.limit)' },
      async handle(ctx, input) {
        const problem = checkCohortCriteria(input.criteria);
        if (problem) throw fieldError(problem.field, problem.reason, problem.message);
        const { projectId } = ctx.state.auth;
        const row = await inTransaction(db, async (client) => {
          // Creations of one project take turns, so the count holds until the insert commits.
          await client.query(`select pg_advisory_xact_lock(hashtextextended('pi-cohorts:' || $1, 0))`, [projectId]);
          const { rows: kept } = await client.query<{ n: number }>(
            `select count(*)::int as n from cohorts where project_id = $1 and type = 'custom'`,
            [projectId],
          );
          const limit = PROJECT_LIMITS.customCohorts;
          if (kept[0]!.n >= limit) {
            throw new ApiError(
              409,
              'conflict',
              `The project already keeps ${limit} custom cohorts; delete one before defining another.`,
              { reason: 'limit_reached', limit },
            );
          }
          const { rows } = await client.query<CohortRow>(
            'insert into cohorts (project_id, cohort_id, name, criteria) values ($1, $2, $3, $4) returning *',
            [projectId, newId('coh'), input.name, input.criteria],
          );
          return rows[0]!;
        });
        ctx.status = 201;
        ctx.body = presentCohort(row, await size(db, projectId, input.criteria));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/cohorts',
      tag: 'Cohorts',
      summary: 'List custom cohorts with their current size',
      scope: 'admin',
      query: PAGING_PARAMS,
      success: { status: 200, schema: 'CohortList', description: '{ cohorts, total, page, per_page }' },
      async handle(ctx) {
        const paged = paging(ctx);
        const { projectId } = ctx.state.auth;
        const { rows, total } = await pageOf<CohortRow>(
          db,
          {
            columns: '*',
            from: 'cohorts',
            where: `project_id = $1 and type = 'custom'`,
            order: 'created_at desc, cohort_id',
          },
          [projectId],
          paged,
        );
        const cohorts = await Promise.all(
          rows.map(async (r) => presentCohort(r, await size(db, projectId, r.criteria))),
        );
        ctx.body = { cohorts, total, page: paged.page, per_page: paged.perPage };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/cohorts/:cohort_id/users',
      tag: 'Cohorts',
      summary: "A cohort's members with their metrics",
      scope: 'admin',
      query: PAGING_PARAMS,
      success: { status: 200, schema: 'CohortUsers', description: '{ cohort_id, users, total, page, per_page }' },
      errors: { 404: 'No such cohort in this project' },
      async handle(ctx) {
        const { page, perPage, offset } = paging(ctx);
        const { projectId } = ctx.state.auth;
        const { rows: found } = await db.query<CohortRow>(
          `select * from cohorts where project_id = $1 and cohort_id = $2 and type = 'custom'`,
          [projectId, pathParam(ctx, 'cohort_id')],
        );
        if (!found[0]) throw notFound('cohort');
        const { where, params } = membership(projectId, found[0].criteria);
        const { rows } = await db.query<Record<string, unknown>>(
          `select m.user_id, m.events, m.days_active, m.sessions, m.features_used, m.friction_index, m.last_seen_at
           from user_metrics m where ${where} order by m.user_id limit ${perPage} offset ${offset}`,
          params,
        );
        ctx.body = {
          cohort_id: found[0].cohort_id,
          users: rows.map((r) => ({ ...r, last_seen_at: (r.last_seen_at as Date | null)?.toISOString() ?? null })),
          total: await size(db, projectId, found[0].criteria),
          page,
          per_page: perPage,
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/cohorts/:cohort_id',
      tag: 'Cohorts',
      summary: 'Delete a custom cohort (its members go with it; changes already announced stay)',
      scope: 'admin',
      success: { status: 200, schema: 'Deleted', description: '{ id, deleted: true }' },
      errors: { 404: 'No such cohort in this project' },
      async handle(ctx) {
        const { rows } = await db.query<{ cohort_id: string }>(
          `delete from cohorts where project_id = $1 and cohort_id = $2 and type = 'custom' returning cohort_id`,
          [ctx.state.auth.projectId, pathParam(ctx, 'cohort_id')],
        );
        if (!rows[0]) throw notFound('cohort');
        ctx.body = { id: rows[0].cohort_id, deleted: true };
      },
    }),
  ];
}
