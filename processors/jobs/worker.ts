import { analyticsConfig, type AnalyticsOverrides } from '../../lib/analytics-config.js';
import { type PoolClient, inTransaction } from '../../lib/db.js';
import { type FrictionTotals, frictionIndex } from '../../lib/friction-index.js';
import { periodicWorker } from '../../lib/notify.js';
import { stepSql } from '../../lib/paths/steps.js';
import type { Services } from '../../lib/services.js';
import { type DropOffInput, type KnownUser, type TargetedJob, dropOffPoints, targetedUsers } from './targeting.js';

interface JobRow extends TargetedJob {
  project_id: string;
  status: string;
  goal: string | null;
  created_at: Date;
  settings: { analytics?: AnalyticsOverrides } | null;
}

/**
 * Keeps Jobs alive: re-evaluates who each active job targets (user properties change through
 * the API, tracked-only users appear with events) and materializes each job's analytics. Only
 * projects whose inputs changed since the last pass (job_changes) are refreshed, or `projectId`
 * unconditionally. Jobs that are not active keep their last targets and numbers.
 */
export async function refreshJobs(services: Services, projectId?: string): Promise<void> {
  const { rows: projects } = projectId
    ? { rows: [{ project_id: projectId }] }
    : await services.db.query<{ project_id: string }>('select distinct project_id from job_changes order by 1');
  for (const { project_id } of projects) {
    await inTransaction(services.db, async (client) => {
      // One refresher per project at a time: a call for one project waits, the worker skips a busy one
      // (its change rows stay for the next pass).
      const key = [`jobs:${project_id}`];
      if (projectId) await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', key);
      else {
        const { rows } = await client.query<{ ok: boolean }>(
          'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as ok',
          key,
        );
        if (!rows[0]!.ok) return;
      }
      // Rows committed before this statement; their changes are visible to the reads below.
      await client.query('delete from job_changes where project_id = $1', [project_id]);
      const { rows: jobs } = await client.query<JobRow>(
        `select j.project_id, j.job_id, j.status, j.goal, j.created_at, j.target_audience, p.settings
         from jobs j join projects p using (project_id)
         where j.status <> 'draft' and j.project_id = $1
         order by j.job_id`,
        [project_id],
      );
      for (const job of jobs) {
        if (job.status === 'active') await retarget(client, job);
        await materialize(client, job);
      }
    });
  }
}

async function retarget(client: PoolClient, job: JobRow): Promise<void> {
  const { rows: users } = await client.query<KnownUser>(
    `select coalesce(u.user_id, m.user_id) as user_id, u.properties
     from (select user_id, properties from users where project_id = $1) u
     full join (select user_id from user_metrics where project_id = $1) m using (user_id)`,
    [job.project_id],
  );
  const targets = targetedUsers(job, users);
  await client.query(
    `delete from job_targets where project_id = $1 and job_id = $2 and not (user_id = any ($3::text[]))`,
    [job.project_id, job.job_id, targets],
  );
  await client.query(
    `insert into job_targets (project_id, job_id, user_id) select $1, $2, unnest($3::text[]) on conflict do nothing`,
    [job.project_id, job.job_id, targets],
  );
}

/**
 * The numbers of GET /analytics/jobs/{id} (docs/metrics.md, "Jobs"): a user counts as targeted
 * while the job targets them or once they completed it; time to completion runs from the user's
 * first event received after the job was created. "After the job" is judged on receipt time, as
 * completions are, so clients' clocks cannot move events across it.
 */
async function materialize(client: PoolClient, job: JobRow): Promise<void> {
  const params = [job.project_id, job.job_id];
  const { rows: totals } = await client.query<{
    targeted: number;
    completed: number;
    avg_seconds: number | null;
    shown: number;
    accepted: number;
  }>(
    `with targeted as (
       select user_id from job_targets where project_id = $1 and job_id = $2
       union select user_id from job_completions where project_id = $1 and job_id = $2)
     select (select count(*)::int from targeted) as targeted,
            (select count(*)::int from job_completions where project_id = $1 and job_id = $2) as completed,
            (select avg(greatest(0, extract(epoch from c.completed_at - s.started)))
             from job_completions c join jobs j using (project_id, job_id)
             cross join lateral (select min(e.occurred_at) as started from session_events e
                                 where e.project_id = c.project_id and e.user_id = c.user_id
                                   and e.received_at >= j.created_at) s
             where c.project_id = $1 and c.job_id = $2) as avg_seconds,
            (select count(*)::int from job_interventions where project_id = $1 and job_id = $2 and kind = 'shown') as shown,
            (select count(*)::int from job_interventions where project_id = $1 and job_id = $2 and kind = 'accepted') as accepted`,
    params,
  );
  const t = totals[0]!;
  // Steps as workflows define them (lib/paths/steps.ts), in events received after the job was created.
  const { rows: steps } = await client.query<Omit<DropOffInput, 'friction_index'> & FrictionTotals>(
    `with targeted as (select user_id from job_targets where project_id = $1 and job_id = $2),
     taken as (
       select * from (
         select e.user_id, ${stepSql('e', 'j.goal')} as step, e.occurred_at, e.kafka_offset
         from session_events e join targeted using (user_id), jobs j
         where e.project_id = $1 and j.project_id = $1 and j.job_id = $2 and e.received_at >= j.created_at) s
       where step is not null),
     last_step as (
       select distinct on (user_id) user_id, step from taken
       where not exists (select 1 from job_completions c where c.project_id = $1 and c.job_id = $2 and c.user_id = taken.user_id)
       order by user_id, occurred_at desc, kafka_offset desc),
     counted as (
       select s.step, count(distinct s.user_id)::int as reached,
              (select count(*)::int from last_step l where l.step = s.step) as dropped
       from taken s group by s.step)
     select c.step, c.reached, c.dropped,
            coalesce(sum(p.views), 0)::float8 as views, coalesce(sum(p.clicks), 0)::float8 as clicks,
            coalesce(sum(p.dead_clicks), 0)::float8 as dead_clicks, coalesce(sum(p.rage_clicks), 0)::float8 as rage_clicks,
            coalesce(sum(p.loop_views), 0)::float8 as loop_views, coalesce(sum(p.backtracks), 0)::float8 as backtracks,
            coalesce(sum(p.active_ms), 0)::float8 as active_ms, coalesce(sum(p.idle_ms), 0)::float8 as idle_ms
     from counted c
     left join friction_page_daily p on p.project_id = $1 and p.page = c.step
       and p.day >= (select created_at::date from jobs where project_id = $1 and job_id = $2)
     where c.dropped > 0
     group by c.step, c.reached, c.dropped`,
    params,
  );
  const weights = analyticsConfig(job.settings?.analytics ?? {}).weights;
  const dropOffs = dropOffPoints(steps.map((s) => ({ ...s, friction_index: frictionIndex(s, weights) })));
  await client.query(
    `insert into job_analytics (project_id, job_id, users_targeted, users_completed, completion_rate, avg_time_to_completion,
                                interventions_shown, interventions_accepted, intervention_acceptance_rate, drop_off_points, computed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
     on conflict (project_id, job_id) do update set
       users_targeted = excluded.users_targeted, users_completed = excluded.users_completed,
       completion_rate = excluded.completion_rate, avg_time_to_completion = excluded.avg_time_to_completion,
       interventions_shown = excluded.interventions_shown, interventions_accepted = excluded.interventions_accepted,
       intervention_acceptance_rate = excluded.intervention_acceptance_rate, drop_off_points = excluded.drop_off_points,
       computed_at = now()`,
    [
      ...params,
      t.targeted,
      t.completed,
      t.targeted > 0 ? t.completed / t.targeted : 0,
      t.avg_seconds ?? 0,
      t.shown,
      t.accepted,
      t.shown > 0 ? t.accepted / t.shown : 0,
      JSON.stringify(dropOffs),
    ],
  );
}

export function startJobWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'jobs' });
  return periodicWorker(() => refreshJobs(services), services.config.pollIntervalMs, log);
}
