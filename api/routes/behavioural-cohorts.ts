import { GroupSums } from '../../domain/cohorts/clustering.js';
import type { DateRange } from '../../domain/date-range.js';
import { round } from '../../domain/metrics.js';
import { type Pool, inTransaction } from '../../lib/db.js';
import { eachMemberChunk, projectUsers } from '../../store/behavioural-facts.js';
import { PAGING_PARAMS, pageFields, paging } from '../query.js';
import {
  type BehaviouralRow,
  type CohortRow,
  type CustomRow,
  activeMembers,
  behaviouralCohortPage,
  behaviouralSizes,
  lastClustering,
  memberFeatureUsers,
  sizesAfterChanges,
} from '../../store/cohorts.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { WINDOW_PARAMS, optionalDateRange } from '../analytics-params.js';
import { cohortUsersRoute, findCohort, presentCohort, rounded } from './cohort-family.js';

/** Members' facts read at once (memory is bounded by this, not by the cohort). */
const USERS_PER_READ = 5000;

/**
 * Features the members use, by how many of them use it: counted with a behavioural cohort by its
 * worker (like its members), over the members now for a custom one.
 */
async function topFeatures(db: Pool, projectId: string, cohort: CohortRow, size: number) {
  const share = (f: { feature: string; users: number }) => ({ ...f, share: round(f.users / size) });
  if (cohort.type === 'behavioral') return cohort.top_features.map(share);
  return (await memberFeatureUsers(db, projectId, cohort)).map(share);
}

/**
 * What a window means for a cohort (docs/adr/0048-windows-on-workflows-jobs-cohorts.md):
 * its members (as they are now) who had a session in the range, and its size over the
 * days of the range. Nothing without a range.
 */
async function inWindow(db: Pool, projectId: string, cohort: CohortRow, range: DateRange | undefined) {
  if (!range) return {};
  return { active_members: await activeMembers(db, projectId, cohort, range), date_range: range };
}

/** How a behavioural cohort was found, what sets it apart, and its size at each day's last computation. */
async function behaviouralDetail(db: Pool, projectId: string, cohort: BehaviouralRow, range?: DateRange) {
  const [run, features, sizes, window] = await Promise.all([
    lastClustering(db, projectId),
    topFeatures(db, projectId, cohort, cohort.size),
    behaviouralSizes(db, projectId, cohort.cohort_id, range),
    inWindow(db, projectId, cohort, range),
  ]);
  return {
    ...presentCohort(cohort, cohort.size),
    definition: {
      ...run!.definition,
      k: run!.k,
      silhouette: run!.silhouette === null ? null : round(run!.silhouette),
      users_clustered: run!.users_clustered,
      users_excluded: run!.users_excluded,
      computed_at: run!.computed_at.toISOString(),
    },
    traits: rounded(cohort.traits),
    top_features: features,
    size_over_time: sizes,
    ...window,
  };
}

/**
 * A custom cohort described like a behavioural one: its members' (by its criteria, now) mean
 * behaviour vector graded by the same rules, its top features, and its size after the last
 * membership change of each UTC day (cohort_changes).
 */
async function customDetail(db: Pool, projectId: string, cohort: CustomRow, range?: DateRange) {
  const { users, sums } = await inTransaction(db, async (client) => {
    const { users, referenceDay } = await projectUsers(client, projectId);
    const sums = new GroupSums(referenceDay);
    await eachMemberChunk(client, projectId, cohort.criteria, USERS_PER_READ, (facts) => {
      facts.forEach((f) => sums.addFacts(f));
      return Promise.resolve();
    });
    return { users, sums };
  });
  const size = sums.n[0]!;
  const profile = sums.profile();
  const [features, sizes, window] = await Promise.all([
    topFeatures(db, projectId, cohort, size),
    sizesAfterChanges(db, projectId, cohort.cohort_id, range),
    inWindow(db, projectId, cohort, range),
  ]);
  return {
    ...presentCohort(cohort, size),
    percentage: round(users > 0 ? size / users : 0),
    characteristics: profile ? rounded(profile.characteristics) : null,
    churn_risk: profile?.churn_risk ?? null,
    expansion_opportunity: profile?.expansion_opportunity ?? null,
    top_features: features,
    size_over_time: sizes,
    ...window,
  };
}

/** Why GET /analytics/cohorts refuses a window. */
const CLUSTERING_HAS_NO_WINDOW =
  'date_range does not apply to /analytics/cohorts: the behavioural clustering groups users by all their history. ' +
  'GET /analytics/cohorts/{id}?date_range=… gives a cohort’s members active in a range and its size over those days.';

/** The analytics view of the cohort family: the clustering's result, and any cohort in detail. */
export function behaviouralCohortRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/cohorts',
      tag: 'Analytics',
      summary: 'Behavioural cohorts: users clustered by behaviour, largest first',
      scope: 'analytics:read',
      query: PAGING_PARAMS,
      refuses: { date_range: CLUSTERING_HAS_NO_WINDOW },
      success: {
        status: 200,
        schema: 'BehaviouralCohortList',
        description:
          '{ cohorts, total, page_number, page, per_page, next, computed_at, users_clustered, users_excluded }',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const paged = paging(ctx);
        const [{ rows, total }, run] = await Promise.all([
          behaviouralCohortPage(db, projectId, paged),
          lastClustering(db, projectId),
        ]);
        ctx.body = {
          cohorts: rows.map((r) => presentCohort(r, r.size)),
          ...pageFields(paged, total),
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
      summary: 'One cohort of either type: its profile, what sets it apart, its top features and size over time',
      scope: 'analytics:read',
      query: WINDOW_PARAMS,
      success: {
        status: 200,
        schema: 'CohortDetail',
        description:
          'Cohort record with top_features and size_over_time; behavioural: definition and traits, custom: criteria; ' +
          'with date_range: active_members (members with a session in the range) and size_over_time of its days',
      },
      errors: { 404: 'No such cohort in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const range = optionalDateRange(ctx);
        const cohort = await findCohort(db, projectId, pathParam(ctx, 'cohort_id'));
        ctx.body =
          cohort.type === 'behavioral'
            ? await behaviouralDetail(db, projectId, cohort, range)
            : await customDetail(db, projectId, cohort, range);
      },
    }),
    cohortUsersRoute(db, { path: '/analytics/cohorts/:cohort_id/users', tag: 'Analytics', scope: 'analytics:read' }),
  ];
}
