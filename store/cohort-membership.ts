import { type CohortCriteria, compileCohortCriteria } from '../domain/cohorts/criteria.js';
import type { CohortDue } from '../domain/limits.js';
import type { Pool, PoolClient } from '../lib/db.js';

/** The pass lock of a project's cohort membership (store/locks.ts, projectPass; erasure takes it too). */
export const COHORT_MEMBERSHIP_PASS = 'cohort-membership';

/**
 * When a custom cohort is due for an evaluation over all its project's users: never evaluated, its
 * criteria changed since, or its criteria name a metric in `$timeRelative` (moving with the clock)
 * and its last such evaluation is `$passMs` old. Over `cohorts c left join cohort_evaluations e`.
 */
const FULL_DUE = (timeRelative: string, passMs: string) =>
  `e.cohort_id is null or e.criteria <> c.criteria
     or (c.criteria ?| ${timeRelative} and e.evaluated_at <= now() - ${passMs}::float8 * interval '1 millisecond')`;

/**
 * The projects the membership pass visits: those with users whose metrics changed
 * (cohort_user_changes) and those with a custom cohort due for a full evaluation.
 */
export async function projectsDueForMembership(db: Pool, timeRelative: string[], passMs: number): Promise<string[]> {
  const { rows } = await db.query<{ project_id: string }>(
    `select project_id from cohort_user_changes
     union select c.project_id from cohorts c left join cohort_evaluations e using (project_id, cohort_id)
       where c.type = 'custom'
         and (${FULL_DUE('$1', '$2')})
     order by 1`,
    [timeRelative, passMs],
  );
  return rows.map((r) => r.project_id);
}

/** A project's custom cohorts with their criteria and whether each is due for a full evaluation, in id order. */
export async function customCohortsDue(
  client: PoolClient,
  projectId: string,
  timeRelative: string[],
  passMs: number,
): Promise<(CohortDue & { criteria: CohortCriteria })[]> {
  const { rows } = await client.query<CohortDue & { criteria: CohortCriteria }>(
    `select c.cohort_id, c.criteria, e.evaluated_at,
            ${FULL_DUE('$2', '$3')} as full
     from cohorts c left join cohort_evaluations e using (project_id, cohort_id)
     where c.project_id = $1 and c.type = 'custom' order by c.cohort_id`,
    [projectId, timeRelative, passMs],
  );
  return rows;
}

/** The distinct users whose metrics were written since the last pass, taken out of the log (migration 21). */
export async function takeChangedUsers(client: PoolClient, projectId: string): Promise<string[]> {
  // Rows committed before this statement; the metrics they name are read by later statements.
  const { rows } = await client.query<{ user_id: string }>(
    'delete from cohort_user_changes where project_id = $1 returning user_id',
    [projectId],
  );
  return [...new Set(rows.map((r) => r.user_id))];
}

/**
 * Evaluates a cohort's criteria for `users` (every user of the project when 'all') and moves its
 * members accordingly; records the difference as one cohort_changes row (published as
 * cohort.changed) when there is one. `size` is the member count after the change. Returns the
 * number of rows recorded (0 or 1).
 */
export async function evaluateCohort(
  client: PoolClient,
  projectId: string,
  cohortId: string,
  criteria: CohortCriteria,
  users: string[] | 'all',
): Promise<number> {
  const { sql, params } = compileCohortCriteria(criteria, 4);
  const all = users === 'all';
  // The statement's snapshot is taken before its changes: the size is the members before, plus and minus.
  const { rowCount } = await client.query(
    `with candidates as (
       select m.* from user_metrics m where m.project_id = $1 and ($3::text[] is null or m.user_id = any ($3::text[]))),
     current as (select m.user_id from candidates m where ${sql}),
     added as (insert into cohort_members (project_id, cohort_id, user_id)
               select $1, $2, user_id from current on conflict do nothing returning user_id),
     removed as (delete from cohort_members c where c.project_id = $1 and c.cohort_id = $2
                   and ($3::text[] is null or c.user_id = any ($3::text[]))
                   and not exists (select 1 from current where current.user_id = c.user_id) returning c.user_id)
     insert into cohort_changes (project_id, cohort_id, name, type, added, removed, size)
     select $1, $2, (select name from cohorts where project_id = $1 and cohort_id = $2), 'custom',
            (select coalesce(array_agg(user_id order by user_id), '{}') from added),
            (select coalesce(array_agg(user_id order by user_id), '{}') from removed),
            (select count(*) from cohort_members where project_id = $1 and cohort_id = $2)
              + (select count(*) from added) - (select count(*) from removed)
     where exists (select 1 from added) or exists (select 1 from removed)`,
    [projectId, cohortId, all ? null : users, ...params],
  );
  if (all) {
    await client.query(
      `insert into cohort_evaluations (project_id, cohort_id, criteria, evaluated_at) values ($1, $2, $3, now())
       on conflict (project_id, cohort_id) do update set criteria = excluded.criteria, evaluated_at = excluded.evaluated_at`,
      [projectId, cohortId, criteria],
    );
  }
  return rowCount ?? 0;
}
