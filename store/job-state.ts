import { analyticsConfig, type AnalyticsOverrides } from '../domain/analytics-config.js';
import { type FrictionTotals, frictionIndex } from '../domain/friction/index.js';
import { type JobUserFacts, addsNothing, jobContribution } from '../domain/jobs/facts.js';
import { type DropOffInput, type KnownUser, type TargetedJob, dropOffPoints } from '../domain/jobs/targeting.js';
import type { Pool, PoolClient } from '../lib/db.js';
import type { DateRange } from '../domain/date-range.js';
import { type AdditiveTable, AdditiveDeltas, big, int } from './additive-deltas.js';
import { summedFacts } from './friction-facts.js';
import { lockProjectPass } from './locks.js';
import type { ChangedJobUser } from './job-user-facts.js';

/**
 * The jobs worker's kept state (migration 21): per job and user the facts the job's numbers sum
 * (job_user_facts), their sums per job (job_sums) and per step (job_step_sums), and job_analytics
 * written from the sums. Writers hold the project's jobs pass lock (store/locks.ts, projectPass).
 */

export const JOBS_PASS = 'jobs';

export interface JobRow extends TargetedJob {
  status: string;
  goal: string | null;
  created_at: Date;
}

const SUMS: AdditiveTable = {
  table: 'job_sums',
  keys: [['job_id', 'text']],
  values: [
    ['targeted', int],
    ['completed', int],
    ['completion_ms', big],
    ['shown', int],
    ['accepted', int],
  ],
};

/** The same sums per day of the users' start on the job (JobUserFacts.day). */
const DAY_SUMS: AdditiveTable = { ...SUMS, table: 'job_day_sums', keys: [...SUMS.keys, ['day', 'date']] };

const STEP_SUMS: AdditiveTable = {
  table: 'job_step_sums',
  keys: [
    ['job_id', 'text'],
    ['step', 'text'],
  ],
  values: [
    ['reached', int],
    ['dropped', int],
  ],
};

const STEP_DAY_SUMS: AdditiveTable = {
  ...STEP_SUMS,
  table: 'job_step_day_sums',
  keys: [STEP_SUMS.keys[0]!, ['day', 'date'], ...STEP_SUMS.keys.slice(1)],
};

/** The columns of job_user_facts as JobUserFacts reads them. */
const FACTS =
  'job_id, user_id, in_targets, completed, completion_ms, shown, accepted, steps, last_step, day::text as day';

/** The project's jobs that have numbers (every status but draft). */
export async function projectJobs(client: PoolClient, projectId: string): Promise<JobRow[]> {
  const { rows } = await client.query<JobRow>(
    `select job_id, status, goal, created_at, target_audience from jobs
     where project_id = $1 and status <> 'draft' order by job_id`,
    [projectId],
  );
  return rows;
}

/**
 * The projects with job changes waiting (job_changes, job_user_changes): the ones the jobs worker's
 * pass visits; each pass takes its project's rows (takeJobChanges).
 */
export async function projectsWithJobChanges(db: Pool): Promise<string[]> {
  const { rows } = await db.query<{ project_id: string }>(
    'select project_id from job_changes union select project_id from job_user_changes order by 1',
  );
  return rows.map((r) => r.project_id);
}

/**
 * What changed since the last pass, taken out of the logs (migration 21): `all` when something
 * concerns every user (job definitions, settings, a truncate), and the users whose inputs changed.
 */
export async function takeJobChanges(
  client: PoolClient,
  projectId: string,
): Promise<{ all: boolean; users: ChangedJobUser[] }> {
  // Rows committed before these statements; what they name is read by later statements.
  const { rowCount } = await client.query('delete from job_changes where project_id = $1', [projectId]);
  const { rows } = await client.query<{ user_id: string; since: string | null }>(
    `with taken as (delete from job_user_changes where project_id = $1 returning user_id, events_since)
     select user_id, case when bool_or(events_since is null) then null else min(events_since) end::text as since
     from taken group by user_id`,
    [projectId],
  );
  return { all: (rowCount ?? 0) > 0, users: rows.map((r) => ({ userId: r.user_id, eventsSince: r.since })) };
}

/** Every user the project's jobs may count: known users and anyone with a job row. */
export async function projectJobUsers(client: PoolClient, projectId: string): Promise<string[]> {
  const { rows } = await client.query<{ user_id: string }>(
    `select user_id from users where project_id = $1 union select user_id from user_metrics where project_id = $1
     union select user_id from job_user_facts where project_id = $1 union select user_id from job_targets where project_id = $1
     union select user_id from job_user_steps where project_id = $1
     union select user_id from job_completions where project_id = $1
     union select user_id from job_interventions where project_id = $1`,
    [projectId],
  );
  return rows.map((r) => r.user_id);
}

/** Those of `users` who are known (identified through /users or seen in events), with their properties. */
export async function knownUsers(client: PoolClient, projectId: string, users: string[]): Promise<KnownUser[]> {
  const { rows } = await client.query<KnownUser>(
    `select coalesce(u.user_id, m.user_id) as user_id, u.properties
     from (select user_id, properties from users where project_id = $1 and user_id = any ($2::text[])) u
     full join (select user_id from user_metrics where project_id = $1 and user_id = any ($2::text[])) m using (user_id)`,
    [projectId, users],
  );
  return rows;
}

/** Among `users`, the job targets exactly `targets`. */
export async function retarget(
  client: PoolClient,
  projectId: string,
  jobId: string,
  users: string[],
  targets: string[],
): Promise<void> {
  await client.query(
    `delete from job_targets where project_id = $1 and job_id = $2 and user_id = any ($3::text[])
       and not (user_id = any ($4::text[]))`,
    [projectId, jobId, users, targets],
  );
  await client.query(
    `insert into job_targets (project_id, job_id, user_id) select $1, $2, unnest($3::text[]) on conflict do nothing`,
    [projectId, jobId, targets],
  );
}

/** Replaces the facts of `users` for `jobIds` with `facts` and moves the jobs' sums by the difference. */
export async function changeJobFacts(
  client: PoolClient,
  projectId: string,
  jobIds: string[],
  users: string[],
  facts: JobUserFacts[],
): Promise<void> {
  const { rows: old } = await client.query<JobUserFacts>(
    `delete from job_user_facts where project_id = $1 and job_id = any ($2::text[]) and user_id = any ($3::text[])
     returning ${FACTS}`,
    [projectId, jobIds, users],
  );
  const kept = facts.filter((f) => !addsNothing(f));
  if (kept.length > 0) {
    await client.query(
      `insert into job_user_facts (project_id, job_id, user_id, in_targets, completed, completion_ms, shown, accepted,
                                   steps, last_step, day)
       select $1, f.job_id, f.user_id, f.in_targets, f.completed, f.completion_ms, f.shown, f.accepted,
              array(select jsonb_array_elements_text(f.steps)), f.last_step, f.day
       from jsonb_to_recordset($2::jsonb) as f(job_id text, user_id text, in_targets boolean, completed boolean,
                                               completion_ms bigint, shown int, accepted int, steps jsonb, last_step text,
                                               day date)`,
      [projectId, JSON.stringify(kept)],
    );
  }
  await moveSums(client, projectId, old, kept);
}

async function moveSums(client: PoolClient, projectId: string, old: JobUserFacts[], fresh: JobUserFacts[]) {
  const deltas = new AdditiveDeltas();
  for (const [rows, sign] of [
    [old, -1],
    [fresh, 1],
  ] as const) {
    for (const f of rows) {
      const { sums, steps } = jobContribution(f);
      deltas.add(SUMS, projectId, { job_id: f.job_id, ...sums }, sign);
      for (const s of steps) deltas.add(STEP_SUMS, projectId, { job_id: f.job_id, ...s }, sign);
      // A user with no event since the job's creation counts in the all-time sums only.
      if (f.day === null) continue;
      deltas.add(DAY_SUMS, projectId, { job_id: f.job_id, day: f.day, ...sums }, sign);
      for (const s of steps) deltas.add(STEP_DAY_SUMS, projectId, { job_id: f.job_id, day: f.day, ...s }, sign);
    }
  }
  await deltas.apply(client);
}

/** A job's numbers as GET /analytics/jobs/{id} shows them (docs/metrics.md, "Jobs"). */
export interface JobNumbers {
  users_targeted: number;
  users_completed: number;
  completion_rate: number;
  avg_time_to_completion: number;
  interventions_shown: number;
  interventions_accepted: number;
  intervention_acceptance_rate: number;
  drop_off_points: ReturnType<typeof dropOffPoints>;
}

/**
 * A job's numbers from its sums: all-time (job_sums, job_step_sums), or with `range` those of the
 * users who started on the job in its days (job_day_sums, job_step_day_sums) with the page friction
 * of those days. A user counts as targeted while the job targets them or once they completed it.
 * The mean time to completion is the numeric mean avg() gave over the completions (seconds to the
 * microsecond).
 */
export async function jobNumbers(
  db: Pool | PoolClient,
  projectId: string,
  jobId: string,
  range?: DateRange,
): Promise<JobNumbers> {
  const params = range ? [projectId, jobId, range.start, range.end] : [projectId, jobId];
  const [sums, stepSums, days, frictionDays] = range
    ? ['job_day_sums', 'job_step_day_sums', 'and day between $3 and $4', 'and p.day between $3 and $4']
    : ['job_sums', 'job_step_sums', '', ''];
  const { rows: found } = await db.query<{
    targeted: number;
    completed: number;
    avg_time: number;
    shown: number;
    accepted: number;
  }>(
    `select sum(targeted)::int as targeted, sum(completed)::int as completed, sum(shown)::int as shown,
            sum(accepted)::int as accepted,
            case when sum(completed) > 0 then (round(sum(completion_ms)::numeric / 1000, 6) / sum(completed))::float8
                 else 0 end as avg_time
     from ${sums} where project_id = $1 and job_id = $2 ${days}
     having count(*) > 0`,
    params,
  );
  const t = found[0] ?? { targeted: 0, completed: 0, avg_time: 0, shown: 0, accepted: 0 };
  const { rows: steps } = await db.query<Omit<DropOffInput, 'friction_index'> & FrictionTotals>(
    `select s.step, s.reached, s.dropped, ${summedFacts('p')}
     from (select step, sum(reached)::int as reached, sum(dropped)::int as dropped from ${stepSums}
           where project_id = $1 and job_id = $2 ${days} group by step) s
     left join friction_page_daily p on p.project_id = $1 and p.page = s.step
       and p.day >= (select created_at::date from jobs where project_id = $1 and job_id = $2)
       ${frictionDays}
     where s.dropped > 0
     group by s.step, s.reached, s.dropped`,
    params,
  );
  const { rows: settings } = await db.query<{ analytics: AnalyticsOverrides | null }>(
    `select settings->'analytics' as analytics from projects where project_id = $1`,
    [projectId],
  );
  const weights = analyticsConfig(settings[0]?.analytics ?? {}).weights;
  return {
    users_targeted: t.targeted,
    users_completed: t.completed,
    completion_rate: t.targeted > 0 ? t.completed / t.targeted : 0,
    avg_time_to_completion: t.avg_time,
    interventions_shown: t.shown,
    interventions_accepted: t.accepted,
    intervention_acceptance_rate: t.shown > 0 ? t.accepted / t.shown : 0,
    drop_off_points: dropOffPoints(steps.map((s) => ({ ...s, friction_index: frictionIndex(s, weights) }))),
  };
}

/** Writes a job's all-time numbers into job_analytics (what GET /analytics/jobs/{id} reads by default). */
export async function materializeJob(client: PoolClient, projectId: string, jobId: string): Promise<void> {
  const n = await jobNumbers(client, projectId, jobId);
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
      projectId,
      jobId,
      n.users_targeted,
      n.users_completed,
      n.completion_rate,
      n.avg_time_to_completion,
      n.interventions_shown,
      n.interventions_accepted,
      n.intervention_acceptance_rate,
      JSON.stringify(n.drop_off_points),
    ],
  );
}

/** Takes a user's facts out of every job's sums and writes those jobs' numbers again (erasure, under the user's lock). */
export async function eraseUserJobFacts(client: PoolClient, projectId: string, userId: string): Promise<void> {
  // A running pass may be writing this user's facts: wait for it, then see what it committed.
  await lockProjectPass(client, JOBS_PASS, projectId);
  const { rows: old } = await client.query<JobUserFacts>(
    `delete from job_user_facts where project_id = $1 and user_id = $2 returning ${FACTS}`,
    [projectId, userId],
  );
  if (old.length === 0) return;
  await moveSums(client, projectId, old, []);
  for (const jobId of new Set(old.map((f) => f.job_id))) await materializeJob(client, projectId, jobId);
}
