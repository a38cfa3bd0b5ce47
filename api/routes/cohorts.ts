import { type CohortCriteria, checkCohortCriteria } from '../../domain/cohorts/criteria.js';
import { PROJECT_LIMITS } from '../../domain/limits.js';
import { type Pool, inTransaction } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { COHORT_MEMBERSHIP_PASS } from '../../store/cohort-membership.js';
import { lockProjectPass } from '../../store/locks.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { PAGING_PARAMS, pageFields, paging, stringParam } from '../query.js';
import {
  cohortPage,
  customCohortCount,
  deleteCustomCohort,
  insertCustomCohort,
  takeCohortCreationTurn,
} from '../../store/cohorts.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { COHORT_TYPES, cohortUsersRoute, findCohort, presentCohort, sizeOf } from './cohort-family.js';

/** The administration of the cohort family: custom cohorts are defined and deleted here, every cohort is read here. */
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
          await takeCohortCreationTurn(client, projectId);
          const limit = PROJECT_LIMITS.customCohorts;
          if ((await customCohortCount(client, projectId)) >= limit) {
            throw new ApiError(
              409,
              'conflict',
              `The project already keeps ${limit} custom cohorts; delete one before defining another.`,
              { reason: 'limit_reached', limit },
            );
          }
          return insertCustomCohort(client, {
            projectId,
            cohortId: newId('coh'),
            name: input.name,
            criteria: input.criteria,
          });
        });
        ctx.status = 201;
        ctx.body = presentCohort(row, await sizeOf(db, projectId, row));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/cohorts',
      tag: 'Cohorts',
      summary: 'List every cohort, behavioural and custom, newest first, with its current size',
      scope: 'admin',
      query: [
        ...PAGING_PARAMS,
        { name: 'type', description: 'only cohorts of this type', schema: { type: 'string', enum: COHORT_TYPES } },
      ],
      success: {
        status: 200,
        schema: 'CohortList',
        description: '{ cohorts, total, page_number, page, per_page, next }',
      },
      async handle(ctx) {
        const paged = paging(ctx);
        const type = stringParam(ctx, 'type', COHORT_TYPES);
        const { projectId } = ctx.state.auth;
        const { rows, total } = await cohortPage(db, projectId, type ?? null, paged);
        const cohorts = await Promise.all(rows.map(async (r) => presentCohort(r, await sizeOf(db, projectId, r))));
        ctx.body = { cohorts, ...pageFields(paged, total) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/cohorts/:cohort_id',
      tag: 'Cohorts',
      summary: 'One cohort of either type with its current size',
      scope: 'admin',
      success: { status: 200, schema: 'Cohort', description: 'The cohort, as in the list' },
      errors: { 404: 'No such cohort in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const cohort = await findCohort(db, projectId, pathParam(ctx, 'cohort_id'));
        ctx.body = presentCohort(cohort, await sizeOf(db, projectId, cohort));
      },
    }),
    cohortUsersRoute(db, { path: '/cohorts/:cohort_id/users', tag: 'Cohorts', scope: 'admin' }),
    defineRoute({
      method: 'DELETE',
      path: '/cohorts/:cohort_id',
      tag: 'Cohorts',
      summary: 'Delete a custom cohort; its members leave it (one last cohort.changed)',
      scope: 'admin',
      success: { status: 200, schema: 'Deleted', description: '{ id, deleted: true }' },
      errors: {
        404: 'No such cohort in this project',
        409: 'A behavioural cohort: computed by clustering, it cannot be deleted',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const cohort = await findCohort(db, projectId, pathParam(ctx, 'cohort_id'));
        if (cohort.type === 'behavioral') {
          throw new ApiError(
            409,
            'conflict',
            `${cohort.cohort_id} is a behavioural cohort: the behavioural-cohorts worker computes it by clustering ` +
              'users, so it cannot be deleted; it goes when a recomputation no longer finds it.',
            { reason: 'computed_cohort', type: cohort.type },
          );
        }
        const deleted = await inTransaction(db, async (client) => {
          // Not while the membership worker evaluates the project: the members read here are the last ones.
          await lockProjectPass(client, COHORT_MEMBERSHIP_PASS, projectId);
          // Members and evaluations go with the cohort (on delete cascade); its past changes stay.
          return deleteCustomCohort(client, projectId, cohort.cohort_id);
        });
        if (!deleted) throw notFound('cohort');
        ctx.body = { id: cohort.cohort_id, deleted: true };
      },
    }),
  ];
}
