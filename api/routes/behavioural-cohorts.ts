import type { Pool } from '../../lib/db.js';
import { notFound } from '../errors.js';
import { PAGING_PARAMS, pageOf, paging } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { round } from '../../domain/metrics.js';

interface CohortRow {
  cohort_id: string;
  name: string;
  size: number;
  percentage: number;
  characteristics: Record<string, number>;
  traits: Record<string, number>;
  churn_risk: string;
  expansion_opportunity: string;
}

interface RunRow {
  k: number;
  silhouette: number | null;
  users_clustered: number;
  users_excluded: number;
  definition: Record<string, unknown>;
  computed_at: Date;
}

const rounded = (values: Record<string, number>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, round(value)]));

/** The spec's Cohort record. */
function presentCohort(row: CohortRow) {
  return {
    id: row.cohort_id,
    name: row.name,
    type: 'behavioral',
    size: row.size,
    percentage: round(row.percentage),
    characteristics: rounded(row.characteristics),
    churn_risk: row.churn_risk,
    expansion_opportunity: row.expansion_opportunity,
  };
}

async function lastRun(db: Pool, projectId: string): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>('select * from behavioural_cohort_runs where project_id = $1', [projectId]);
  return rows[0];
}

async function findCohort(db: Pool, projectId: string, cohortId: string): Promise<CohortRow> {
  const { rows } = await db.query<CohortRow>(
    'select * from behavioural_cohorts where project_id = $1 and cohort_id = $2',
    [projectId, cohortId],
  );
  if (!rows[0]) throw notFound('behavioural cohort');
  return rows[0];
}

export function behaviouralCohortRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/cohorts',
      tag: 'Analytics',
      summary: 'Behavioural cohorts: users clustered by behaviour, largest first',
      scope: 'analytics:read',
      success: {
        status: 200,
        schema: 'BehaviouralCohortList',
        description: '{ cohorts, computed_at, users_clustered, users_excluded }',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const [{ rows }, run] = await Promise.all([
          db.query<CohortRow>('select * from behavioural_cohorts where project_id = $1 order by size desc, cohort_id', [
            projectId,
          ]),
          lastRun(db, projectId),
        ]);
        ctx.body = {
          cohorts: rows.map(presentCohort),
          computed_at: run?.computed_at.toISOString() ?? null,
          users_clustered: run?.users_clustered ?? 0,
          users_excluded: run?.users_excluded ?? 0,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/cohorts/:cohort_id',
      tag: 'Analytics',
      summary: 'One behavioural cohort: how it was found, what sets it apart, its top features and size over time',
      scope: 'analytics:read',
      success: {
        status: 200,
        schema: 'BehaviouralCohortDetail',
        description: 'Cohort record with definition, traits, top_features and size_over_time',
      },
      errors: { 404: 'No such behavioural cohort in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const cohort = await findCohort(db, projectId, pathParam(ctx, 'cohort_id'));
        const [run, { rows: features }, { rows: sizes }] = await Promise.all([
          lastRun(db, projectId),
          // Features the members use, by how many of them use it.
          db.query<{ feature: string; users: number }>(
            `select f.feature, count(*)::int as users
             from behavioural_cohort_members m
             join feature_users f on f.project_id = m.project_id and f.user_id = m.user_id and f.first_used_at is not null
             where m.project_id = $1 and m.cohort_id = $2
             group by f.feature order by users desc, f.feature limit 10`,
            [projectId, cohort.cohort_id],
          ),
          db.query<{ date: string; size: number }>(
            `select to_char(day, 'YYYY-MM-DD') as date, size from behavioural_cohort_sizes
             where project_id = $1 and cohort_id = $2 order by day`,
            [projectId, cohort.cohort_id],
          ),
        ]);
        ctx.body = {
          ...presentCohort(cohort),
          definition: {
            ...run!.definition,
            k: run!.k,
            silhouette: run!.silhouette === null ? null : round(run!.silhouette),
            users_clustered: run!.users_clustered,
            users_excluded: run!.users_excluded,
            computed_at: run!.computed_at.toISOString(),
          },
          traits: rounded(cohort.traits),
          top_features: features.map((f) => ({
            feature: f.feature,
            users: f.users,
            share: round(f.users / cohort.size),
          })),
          size_over_time: sizes,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/cohorts/:cohort_id/users',
      tag: 'Analytics',
      summary: "A behavioural cohort's members with the behaviour they were clustered on",
      scope: 'analytics:read',
      query: PAGING_PARAMS,
      success: {
        status: 200,
        schema: 'BehaviouralCohortUsers',
        description: '{ cohort_id, users, total, page, per_page }',
      },
      errors: { 404: 'No such behavioural cohort in this project' },
      async handle(ctx) {
        const paged = paging(ctx);
        const { projectId } = ctx.state.auth;
        const cohort = await findCohort(db, projectId, pathParam(ctx, 'cohort_id'));
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
        ctx.body = {
          cohort_id: cohort.cohort_id,
          users: rows.map((r) => ({ user_id: r.user_id, ...rounded(r.features) })),
          total,
          page: paged.page,
          per_page: paged.perPage,
        };
      },
    }),
  ];
}
