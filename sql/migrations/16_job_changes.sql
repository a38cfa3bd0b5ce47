-- Projects whose job inputs changed since their jobs were last refreshed: events stored or erased,
-- user properties, job definitions, project settings (friction weights). One row per statement
-- (an append-only log, as workflow_changes); the jobs worker deletes the rows it has seen in the
-- transaction that refreshes the project's jobs, and leaves projects without rows alone.
create table job_changes (
  change_id bigint generated always as identity primary key,
  project_id uuid not null
);
create index job_changes_project on job_changes (project_id);

create function pi_on_job_inputs_changed() returns trigger language plpgsql as $$
begin
  insert into job_changes (project_id) select distinct project_id from changed_rows;
  return null;
end $$;

create trigger session_events_inserted_jobs after insert on session_events
  referencing new table as changed_rows for each statement execute function pi_on_job_inputs_changed();
create trigger session_events_deleted_jobs after delete on session_events
  referencing old table as changed_rows for each statement execute function pi_on_job_inputs_changed();
create trigger users_inserted_jobs after insert on users
  referencing new table as changed_rows for each statement execute function pi_on_job_inputs_changed();
create trigger users_updated_jobs after update on users
  referencing new table as changed_rows for each statement execute function pi_on_job_inputs_changed();
create trigger users_deleted_jobs after delete on users
  referencing old table as changed_rows for each statement execute function pi_on_job_inputs_changed();
create trigger jobs_inserted_jobs after insert on jobs
  referencing new table as changed_rows for each statement execute function pi_on_job_inputs_changed();
create trigger jobs_updated_jobs after update on jobs
  referencing new table as changed_rows for each statement execute function pi_on_job_inputs_changed();
create trigger projects_updated_jobs after update on projects
  referencing new table as changed_rows for each statement execute function pi_on_job_inputs_changed();

-- A replay truncates session_events: every project with jobs is then changed.
create function pi_on_session_events_truncated_jobs() returns trigger language plpgsql as $$
begin
  insert into job_changes (project_id) select distinct project_id from jobs where status <> 'draft';
  return null;
end $$;
create trigger session_events_truncated_jobs after truncate on session_events
  for each statement execute function pi_on_session_events_truncated_jobs();
