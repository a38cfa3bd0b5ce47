-- What a user's events add to a job (domain/jobs/facts.ts: the steps, the latest step, the start),
-- kept per job and user for every user with an event received since the job's creation, so that a
-- jobs pass reads only the events stored since its last one, from the time job_user_changes names.
create table job_user_steps (
  project_id uuid not null,
  job_id text not null,
  user_id text not null,
  -- the first of the user's events received since the job's creation
  started_at timestamptz not null,
  steps text[] not null,
  -- the latest of those events that is a step: its step, time and offset (null without one)
  last_step text,
  last_step_at timestamptz,
  last_step_offset bigint,
  primary key (project_id, job_id, user_id),
  foreign key (project_id, job_id) references jobs (project_id, job_id) on delete cascade
);

-- The least time of the events a change stored: the pass reads the user's events from it on. Null
-- (events deleted): all of the user's events; infinity (properties changed): none.
alter table job_user_changes add column events_since timestamptz;

create function pi_on_job_user_events_stored() returns trigger language plpgsql as $$
begin
  insert into job_user_changes (project_id, user_id, events_since)
  select project_id, user_id, min(occurred_at) from changed_rows group by 1, 2;
  return null;
end $$;

create function pi_on_job_user_properties_changed() returns trigger language plpgsql as $$
begin
  insert into job_user_changes (project_id, user_id, events_since)
  select distinct project_id, user_id, 'infinity'::timestamptz from changed_rows;
  return null;
end $$;

drop trigger session_events_inserted_jobs on session_events;
drop trigger users_inserted_jobs on users;
drop trigger users_updated_jobs on users;
drop trigger users_deleted_jobs on users;
create trigger session_events_inserted_jobs after insert on session_events
  referencing new table as changed_rows for each statement execute function pi_on_job_user_events_stored();
create trigger users_inserted_jobs after insert on users
  referencing new table as changed_rows for each statement execute function pi_on_job_user_properties_changed();
create trigger users_updated_jobs after update on users
  referencing new table as changed_rows for each statement execute function pi_on_job_user_properties_changed();
create trigger users_deleted_jobs after delete on users
  referencing old table as changed_rows for each statement execute function pi_on_job_user_properties_changed();

-- The kept steps start empty: each project's next pass goes over all its users once and fills them.
insert into job_changes (project_id) select distinct project_id from jobs where status <> 'draft';
