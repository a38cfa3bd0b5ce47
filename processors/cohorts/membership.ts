import { type CohortCriteria, compileCohortCriteria } from '../../lib/cohort-criteria.js';
import { inTransaction } from '../../lib/db.js';
import { periodicWorker } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';

/**
 * Live membership of custom cohorts: each pass re-evaluates every cohort's criteria over
 * user_metrics and records the difference as one cohort_changes row (published as
 * cohort.changed). A cohort's first pass adds all its members. Criteria such as last_seen_days
 * change with time alone, hence a timer rather than a trigger on user_metrics.
 */
export async function refreshCohortMembership(services: Services): Promise<number> {
  const { db } = services;
  await db.query(
    `delete from cohort_members m where not exists
       (select 1 from cohorts c where c.project_id = m.project_id and c.cohort_id = m.cohort_id)`,
  );
  const { rows: cohorts } = await db.query<{ project_id: string; cohort_id: string; criteria: CohortCriteria }>(
    'select project_id, cohort_id, criteria from cohorts order by project_id, cohort_id',
  );
  let changes = 0;
  for (const cohort of cohorts) {
    const { sql, params } = compileCohortCriteria(cohort.criteria, 3);
    changes += await inTransaction(db, async (client) => {
      // Several workers may run: one evaluates a cohort at a time, the others skip it.
      const { rows: lock } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_xact_lock(hashtextextended($1 || $2, 1)) as ok',
        [cohort.project_id, cohort.cohort_id],
      );
      if (!lock[0]!.ok) return 0;
      const { rowCount } = await client.query(
        `with current as (select m.user_id from user_metrics m where m.project_id = $1 and ${sql}),
         added as (insert into cohort_members (project_id, cohort_id, user_id)
                   select $1, $2, user_id from current on conflict do nothing returning user_id),
         removed as (delete from cohort_members c where c.project_id = $1 and c.cohort_id = $2
                       and not exists (select 1 from current where current.user_id = c.user_id) returning c.user_id)
         insert into cohort_changes (project_id, change_id, cohort_id, added, removed, size)
         select $1, 'cc_' || replace(gen_random_uuid()::text, '-', ''), $2,
                (select coalesce(array_agg(user_id order by user_id), '{}') from added),
                (select coalesce(array_agg(user_id order by user_id), '{}') from removed),
                (select count(*) from current)
         where exists (select 1 from added) or exists (select 1 from removed)`,
        [cohort.project_id, cohort.cohort_id, ...params],
      );
      return rowCount ?? 0;
    });
  }
  return changes;
}

export function startCohortMembership(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'cohort-membership' });
  return periodicWorker(() => refreshCohortMembership(services), services.config.pollIntervalMs, log);
}
