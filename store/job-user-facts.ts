import type { JobUserFacts } from '../domain/jobs/facts.js';
import { stepSql } from '../domain/workflows/steps.js';
import type { PoolClient } from '../lib/db.js';
import type { JobRow } from './job-state.js';

/** A user whose job inputs changed, and from when their events are read again (null: all of them). */
export interface ChangedJobUser {
  userId: string;
  /** the least time of the events stored since the last pass ('infinity' when none; migration 31) */
  eventsSince: string | null;
}

/** What a user's events add to a job, kept in job_user_steps (migration 31); started_at null: no event. */
interface JobUserSteps {
  job_id: string;
  user_id: string;
  started_at: string | null;
  steps: string[];
  last_step: string | null;
  last_step_at: string | null;
  last_step_offset: string | null;
  /** to be written: differs from the kept row, or read from all events */
  moved: boolean;
}

/** The latest step of the kept one (k) and of the events read now (e), as `column`. */
const latestStep = (column: string) =>
  `case when e.last_step_at is not null
              and (k.last_step_at is null or (e.last_step_at, e.last_step_offset) > (k.last_step_at, k.last_step_offset))
        then e.${column} else k.${column} end`;

/**
 * The facts of `users` for each of `jobs`, read now. "After the job" is judged on receipt time, as
 * completions are; a completion's time counts from the user's first event received after the job
 * was created (0 when there is none, as avg's greatest(0, null) did). What the user's events add
 * (first event, steps, latest step) is the kept job_user_steps row merged with the events from the
 * user's `eventsSince` on: every event stored since that row was written is among them, and those
 * read again change nothing (a least, a union, a latest). Without `eventsSince`, all the events.
 */
export async function jobUserFacts(
  client: PoolClient,
  projectId: string,
  jobs: JobRow[],
  users: ChangedJobUser[],
): Promise<JobUserFacts[]> {
  const { rows } = await client.query<JobUserFacts & JobUserSteps>(
    `select p.job_id, p.user_id,
            exists (select 1 from job_targets t where t.project_id = $1 and t.job_id = p.job_id and t.user_id = p.user_id)
              as in_targets,
            c.user_id is not null as completed,
            case when c.user_id is null then 0
                 else coalesce(greatest(0, round(extract(epoch from c.completed_at - m.started_at) * 1000)), 0) end::bigint
              as completion_ms,
            (select count(*)::int from job_interventions i
             where i.project_id = $1 and i.user_id = p.user_id and i.job_id = p.job_id and i.kind = 'shown') as shown,
            (select count(*)::int from job_interventions i
             where i.project_id = $1 and i.user_id = p.user_id and i.job_id = p.job_id and i.kind = 'accepted') as accepted,
            m.steps, m.last_step, to_char(m.started_at at time zone 'utc', 'YYYY-MM-DD') as day,
            m.started_at::text, m.last_step_at::text, m.last_step_offset::text,
            -- Read from all events, a row may be kept though none is left; merged, none was kept if k is null.
            p.since is null or (k.started_at is not null or m.started_at is not null)
              and (k.started_at, k.steps, k.last_step_at, k.last_step_offset)
                  is distinct from (m.started_at, m.steps, m.last_step_at, m.last_step_offset) as moved
     from (select j.job_id, j.goal, j.created_at, u.user_id, u.since
           from jobs j cross join unnest($2::text[], $4::timestamptz[]) as u(user_id, since)
           where j.project_id = $1 and j.job_id = any ($3::text[])) p
     left join job_completions c on c.project_id = $1 and c.job_id = p.job_id and c.user_id = p.user_id
     left join job_user_steps k on p.since is not null and k.project_id = $1 and k.job_id = p.job_id and k.user_id = p.user_id
     left join lateral (
       select min(x.occurred_at) as started,
              array_agg(distinct x.step) filter (where x.step is not null) as steps,
              (array_agg(x.step order by x.occurred_at desc, x.kafka_offset desc) filter (where x.step is not null))[1]
                as last_step,
              max(x.occurred_at) filter (where x.step is not null) as last_step_at,
              (array_agg(x.kafka_offset order by x.occurred_at desc, x.kafka_offset desc)
                 filter (where x.step is not null))[1] as last_step_offset
       from (select ${stepSql('s', 'p.goal')} as step, s.occurred_at, s.kafka_offset from session_events s
             where s.project_id = $1 and s.user_id = p.user_id and s.received_at >= p.created_at
               and s.occurred_at >= coalesce(p.since, '-infinity')) x
     ) e on true
     cross join lateral (
       select least(k.started_at, e.started) as started_at,
              array(select distinct v from unnest(coalesce(k.steps, '{}') || coalesce(e.steps, '{}')) v order by v) as steps,
              ${latestStep('last_step')} as last_step,
              ${latestStep('last_step_at')} as last_step_at,
              ${latestStep('last_step_offset')} as last_step_offset
     ) m`,
    [projectId, users.map((u) => u.userId), jobs.map((j) => j.job_id), users.map((u) => u.eventsSince)],
  );
  await keepJobUserSteps(
    client,
    projectId,
    rows.filter((r) => r.moved),
  );
  return rows.map(
    ({ started_at: _s, last_step_at: _a, last_step_offset: _o, moved: _m, ...facts }): JobUserFacts => facts,
  );
}

/** Writes the job_user_steps rows that moved; a user without an event since the job's creation has none. */
async function keepJobUserSteps(client: PoolClient, projectId: string, moved: JobUserSteps[]): Promise<void> {
  const kept = moved.filter((r) => r.started_at !== null);
  const gone = moved.filter((r) => r.started_at === null);
  if (gone.length > 0) {
    await client.query(
      `delete from job_user_steps k using unnest($2::text[], $3::text[]) as g(job_id, user_id)
       where k.project_id = $1 and k.job_id = g.job_id and k.user_id = g.user_id`,
      [projectId, gone.map((r) => r.job_id), gone.map((r) => r.user_id)],
    );
  }
  if (kept.length === 0) return;
  await client.query(
    `insert into job_user_steps (project_id, job_id, user_id, started_at, steps, last_step, last_step_at, last_step_offset)
     select $1, r.job_id, r.user_id, r.started_at, array(select jsonb_array_elements_text(r.steps)), r.last_step,
            r.last_step_at, r.last_step_offset
     from jsonb_to_recordset($2::jsonb) as r(job_id text, user_id text, started_at timestamptz, steps jsonb,
                                             last_step text, last_step_at timestamptz, last_step_offset bigint)
     on conflict (project_id, job_id, user_id) do update set started_at = excluded.started_at, steps = excluded.steps,
       last_step = excluded.last_step, last_step_at = excluded.last_step_at, last_step_offset = excluded.last_step_offset`,
    [projectId, JSON.stringify(kept)],
  );
}
