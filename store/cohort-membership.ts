import { type CohortCriteria, compileCohortCriteria } from '../domain/cohorts/criteria.js';
import type { PoolClient } from '../lib/db.js';

/** The pass lock of a project's cohort membership (store/locks.ts, projectPass; erasure takes it too). */
export const COHORT_MEMBERSHIP_PASS = 'cohort-membership';

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
