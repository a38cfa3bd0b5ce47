import { BEHAVIOURAL_COHORTS } from '../domain/cohorts/behavioural.js';
import { type CohortCriteria, compileCohortCriteria } from '../domain/cohorts/criteria.js';
import type { DateRange } from '../domain/date-range.js';
import type { Pool, PoolClient } from '../lib/db.js';
import { type PageWindow, pageOf } from './pages.js';

/**
 * The cohort family as the API reads and keeps it (docs/adr/0043-one-cohort-family.md): every
 * cohort is a row of **`cohorts`**; a behavioural cohort's numbers join it from
 * behavioural_cohorts, its members from behavioural_cohort_members; a custom cohort's members are
 * the user_metrics rows its criteria select now. Custom cohorts' deletions write cohort_changes.
 */

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

/** The project's last clustering (behavioural_cohort_runs). */
export interface ClusteringRow {
  k: number;
  silhouette: number | null;
  users_clustered: number;
  users_excluded: number;
  definition: Record<string, unknown>;
  computed_at: Date;
}

/**
 * The family's rows, for `select <columns> from <from> where <visible> and …`. A behavioural cohort
 * is seen with its numbers only (its registry row and its numbers are written in one transaction).
 */
const COHORT_ROWS = {
  columns: `c.cohort_id, c.name, c.type, c.criteria, c.created_at, b.size, b.percentage, b.characteristics, b.traits,
            b.churn_risk, b.expansion_opportunity, b.top_features`,
  from: 'cohorts c left join behavioural_cohorts b using (project_id, cohort_id)',
  visible: `(c.type = 'custom' or b.cohort_id is not null)`,
};

/** A custom cohort's members are the users whose pipeline metrics (user_metrics m) meet every condition now. */
function membership(projectId: string, criteria: CohortCriteria) {
  const { sql, params } = compileCohortCriteria(criteria, 2);
  return { where: `m.project_id = $1 and ${sql}`, params: [projectId, ...params] };
}

/** The user ids of a cohort's members, as a subquery with its parameters ($1 is the project). */
function membersOf(projectId: string, cohort: CohortRow): { sql: string; params: unknown[] } {
  if (cohort.type === 'behavioral') {
    return {
      sql: 'select user_id from behavioural_cohort_members where project_id = $1 and cohort_id = $2',
      params: [projectId, cohort.cohort_id],
    };
  }
  const { where, params } = membership(projectId, cohort.criteria);
  return { sql: `select m.user_id from user_metrics m where ${where}`, params };
}

/** The days of `range` as a condition on a date expression ($3 and $4), or none. */
const daysOf = (expression: string, range: DateRange | undefined) =>
  range ? { sql: `and ${expression} between $3 and $4`, params: [range.start, range.end] } : { sql: '', params: [] };

/** Reads one visible cohort of the project. */
export async function cohortById(db: Pool, projectId: string, cohortId: string): Promise<CohortRow | undefined> {
  const { rows } = await db.query<CohortRow>(
    `select ${COHORT_ROWS.columns} from ${COHORT_ROWS.from}
     where ${COHORT_ROWS.visible} and c.project_id = $1 and c.cohort_id = $2`,
    [projectId, cohortId],
  );
  return rows[0];
}

/** Reads a page of the project's visible cohorts (of one type, or all when null), newest first, and their total. */
export async function cohortPage(db: Pool, projectId: string, type: string | null, page: PageWindow) {
  return pageOf<CohortRow>(
    db,
    {
      columns: COHORT_ROWS.columns,
      from: COHORT_ROWS.from,
      where: `${COHORT_ROWS.visible} and c.project_id = $1 and ($2::text is null or c.type = $2)`,
      order: 'c.created_at desc, c.cohort_id',
    },
    [projectId, type],
    page,
  );
}

/** Reads a page of the project's behavioural cohorts, largest first, and their total. */
export async function behaviouralCohortPage(db: Pool, projectId: string, page: PageWindow) {
  return pageOf<BehaviouralRow>(
    db,
    {
      columns: COHORT_ROWS.columns,
      from: COHORT_ROWS.from,
      where: `${COHORT_ROWS.visible} and c.project_id = $1 and c.type = 'behavioral'`,
      order: 'b.size desc, c.cohort_id',
    },
    [projectId],
    page,
  );
}

/** Counts the user_metrics rows a custom cohort's criteria select now. */
export async function customCohortSize(db: Pool, projectId: string, criteria: CohortCriteria): Promise<number> {
  const { where, params } = membership(projectId, criteria);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from user_metrics m where ${where}`,
    params,
  );
  return rows[0]!.n;
}

/** Reads a page of a behavioural cohort's members with the values they were clustered on, and their total. */
export async function behaviouralMemberPage(db: Pool, projectId: string, cohortId: string, page: PageWindow) {
  return pageOf<{ user_id: string; features: Record<string, number> }>(
    db,
    {
      columns: 'user_id, features',
      from: 'behavioural_cohort_members',
      where: 'project_id = $1 and cohort_id = $2',
      order: 'user_id',
    },
    [projectId, cohortId],
    page,
  );
}

/** Reads a page of a custom cohort's members with the user_metrics its criteria are evaluated on, and their total. */
export async function customMemberPage(db: Pool, projectId: string, criteria: CohortCriteria, page: PageWindow) {
  const { where, params } = membership(projectId, criteria);
  return pageOf<{ user_id: string; last_seen_at: Date | null }>(
    db,
    {
      columns: 'm.user_id, m.events, m.days_active, m.sessions, m.features_used, m.friction_index, m.last_seen_at',
      from: 'user_metrics m',
      where,
      order: 'm.user_id',
    },
    params,
    page,
  );
}

/** Reads the project's last clustering (behavioural_cohort_runs). */
export async function lastClustering(db: Pool, projectId: string): Promise<ClusteringRow | undefined> {
  const { rows } = await db.query<ClusteringRow>('select * from behavioural_cohort_runs where project_id = $1', [
    projectId,
  ]);
  return rows[0];
}

/** Counts, from feature_users, the features a cohort's members use now, most used first (the top few). */
export async function memberFeatureUsers(
  db: Pool,
  projectId: string,
  cohort: CohortRow,
): Promise<{ feature: string; users: number }[]> {
  const members = membersOf(projectId, cohort);
  const { rows } = await db.query<{ feature: string; users: number }>(
    `select f.feature, count(*)::int as users from feature_users f
     where f.project_id = $1 and f.first_used_at is not null and f.user_id in (${members.sql})
     group by f.feature order by users desc, f.feature limit ${BEHAVIOURAL_COHORTS.topFeatures}`,
    members.params,
  );
  return rows;
}

/** Counts a cohort's members (as they are now) with a session on a day of `range` (user_daily). */
export async function activeMembers(db: Pool, projectId: string, cohort: CohortRow, range: DateRange): Promise<number> {
  const members = membersOf(projectId, cohort);
  const n = members.params.length;
  const { rows } = await db.query<{ n: number }>(
    `select count(distinct d.user_id)::int as n from user_daily d
     where d.project_id = $1 and d.sessions > 0 and d.day between $${n + 1} and $${n + 2} and d.user_id in (${members.sql})`,
    [...members.params, range.start, range.end],
  );
  return rows[0]!.n;
}

/** Reads a behavioural cohort's size at each day's last computation (behavioural_cohort_sizes), in the range if given. */
export async function behaviouralSizes(db: Pool, projectId: string, cohortId: string, range?: DateRange) {
  const days = daysOf('day', range);
  const { rows } = await db.query<{ date: string; size: number }>(
    `select to_char(day, 'YYYY-MM-DD') as date, size from behavioural_cohort_sizes
     where project_id = $1 and cohort_id = $2 ${days.sql} order by day`,
    [projectId, cohortId, ...days.params],
  );
  return rows;
}

/** Reads a cohort's size after the last membership change of each UTC day (cohort_changes), in the range if given. */
export async function sizesAfterChanges(db: Pool, projectId: string, cohortId: string, range?: DateRange) {
  const days = daysOf(`(changed_at at time zone 'utc')::date`, range);
  const { rows } = await db.query<{ date: string; size: number }>(
    `select distinct on (1) to_char(changed_at at time zone 'utc', 'YYYY-MM-DD') as date, size from cohort_changes
     where project_id = $1 and cohort_id = $2 ${days.sql} order by 1, changed_at desc`,
    [projectId, cohortId, ...days.params],
  );
  return rows;
}

/** Waits for the project's turn to create a custom cohort (an advisory lock held to commit). */
export async function takeCohortCreationTurn(client: PoolClient, projectId: string): Promise<void> {
  await client.query(`select pg_advisory_xact_lock(hashtextextended('pi-cohorts:' || $1, 0))`, [projectId]);
}

/** Counts the project's custom cohorts. */
export async function customCohortCount(client: PoolClient, projectId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from cohorts where project_id = $1 and type = 'custom'`,
    [projectId],
  );
  return rows[0]!.n;
}

/** Inserts a custom cohort. */
export async function insertCustomCohort(
  client: PoolClient,
  cohort: { projectId: string; cohortId: string; name: string; criteria: CohortCriteria },
): Promise<CustomRow> {
  const { rows } = await client.query<CustomRow>(
    `insert into cohorts (project_id, cohort_id, name, criteria) values ($1, $2, $3, $4)
     returning cohort_id, name, type, criteria, created_at`,
    [cohort.projectId, cohort.cohortId, cohort.name, cohort.criteria],
  );
  return rows[0]!;
}

/**
 * Deletes a custom cohort (its members and evaluations go with it, on delete cascade) and records
 * its members' leaving as one cohort_changes row when it had any; whether it was deleted.
 */
export async function deleteCustomCohort(client: PoolClient, projectId: string, cohortId: string): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `with members as (select coalesce(array_agg(user_id order by user_id), '{}') as removed
                      from cohort_members where project_id = $1 and cohort_id = $2),
          gone as (delete from cohorts where project_id = $1 and cohort_id = $2 and type = 'custom' returning name),
          announced as (
            insert into cohort_changes (project_id, cohort_id, name, type, added, removed, size)
            select $1, $2, gone.name, 'custom', '{}', members.removed, 0 from gone, members
            where cardinality(members.removed) > 0)
     select count(*)::int as n from gone`,
    [projectId, cohortId],
  );
  return rows[0]!.n > 0;
}
