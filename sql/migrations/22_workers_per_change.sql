-- Workers whose cost per pass follows what changed, not the project's history (docs/decisions.md,
-- "Workers kept per change"). Each worker reads an append-only log of what changed since its last
-- pass (rows written by triggers in the writers' transactions, deleted by the worker in the
-- transaction that uses them, as workflow_changes and job_changes already are) and keeps sums it can
-- add to and subtract from.

-- Workflows ----------------------------------------------------------------------------------------

-- The sessions written or deleted since the workflows worker last looked: one row per session and
-- statement. The analytics sink replaces every session its events change (store/sessions.ts), so a
-- session's attempts change only when it is logged here; the worker replaces those sessions' attempts.
create table workflow_session_changes (
  change_id bigint generated always as identity primary key,
  project_id uuid not null,
  session_id text not null
);
create index workflow_session_changes_project on workflow_session_changes (project_id);

create function pi_on_sessions_changed() returns trigger language plpgsql as $$
begin
  insert into workflow_session_changes (project_id, session_id) select project_id, session_id from changed_rows;
  return null;
end $$;
create trigger sessions_inserted_workflows after insert on sessions
  referencing new table as changed_rows for each statement execute function pi_on_sessions_changed();
create trigger sessions_deleted_workflows after delete on sessions
  referencing old table as changed_rows for each statement execute function pi_on_sessions_changed();

-- workflow_changes now asks for a rebuild of a project's workflows from all its sessions: a replay
-- truncated them (the truncate trigger of migration 8 stays). Events no longer mark a whole project.
drop trigger session_events_inserted_workflows on session_events;
drop trigger session_events_deleted_workflows on session_events;
drop function pi_on_session_events_changed();
-- Goals computed before this migration have no attempts kept yet: each project is built once.
insert into workflow_changes (project_id) select distinct project_id from workflow_goals;

-- Every session's attempts at every goal kept (domain/workflows/attempt-rows.ts). The one table here
-- with user ids: erasure subtracts the user's attempts from the sums below and deletes them. No
-- foreign key to workflow_goals (a check per row of the largest table): the worker deletes a goal's
-- attempts with the goal (store/workflow-attempts.ts, forgetAttempts).
create table workflow_attempts (
  project_id uuid not null,
  session_id text not null,
  goal text not null,
  ordinal integer not null,
  user_id text not null,
  completed boolean not null,
  -- JSON of the merged, capped path (the key completed attempts are grouped by)
  path text not null,
  raw_steps integer not null,
  merged_steps integer not null,
  duration_ms bigint not null,
  primary key (project_id, session_id, goal, ordinal)
);
create index workflow_attempts_user on workflow_attempts (project_id, user_id);
-- Whether a user still completes along a path after a change (workflow_paths.users).
create index workflow_attempts_path_users on workflow_attempts (project_id, goal, path, user_id) where completed;

-- A goal's sums over its attempts (mining.ts, GoalSummary): rows are added to and subtracted from,
-- and a row whose sums fall to zero is deleted (store/additive-deltas.ts).
create table workflow_paths (
  project_id uuid not null,
  goal text not null,
  path text not null,
  occurrences integer not null,
  duration_ms bigint not null,
  raw_steps bigint not null,
  -- distinct users with a completed attempt along the path
  users integer not null,
  primary key (project_id, goal, path),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);
create table workflow_first_steps (
  project_id uuid not null,
  goal text not null,
  first_step text not null,
  attempts integer not null,
  completions integer not null,
  primary key (project_id, goal, first_step),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);
-- Completed attempts per merged length: the goal's optimum is the least non-empty length present.
create table workflow_lengths (
  project_id uuid not null,
  goal text not null,
  merged_steps integer not null,
  completions integer not null,
  primary key (project_id, goal, merged_steps),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);

-- Custom cohort membership -------------------------------------------------------------------------

-- Users whose user_metrics row was written since the membership worker last looked (the analytics
-- sink rewrites the row of every user a batch touches). The worker evaluates criteria for them only.
create table cohort_user_changes (
  change_id bigint generated always as identity primary key,
  project_id uuid not null,
  user_id text not null
);
create index cohort_user_changes_project on cohort_user_changes (project_id);

create function pi_on_user_metrics_changed() returns trigger language plpgsql as $$
begin
  insert into cohort_user_changes (project_id, user_id) select project_id, user_id from changed_rows;
  return null;
end $$;
create trigger user_metrics_inserted_cohorts after insert on user_metrics
  referencing new table as changed_rows for each statement execute function pi_on_user_metrics_changed();
create trigger user_metrics_updated_cohorts after update on user_metrics
  referencing new table as changed_rows for each statement execute function pi_on_user_metrics_changed();

-- Each cohort's last evaluation over all of its project's users, and the criteria it used. A cohort
-- without one (new, or its users' rows truncated by a replay) is evaluated over all users next; one
-- whose criteria depend on time alone (last_seen_days) again every so often (workers/cohort-membership).
create table cohort_evaluations (
  project_id uuid not null,
  cohort_id text not null,
  criteria jsonb not null,
  evaluated_at timestamptz not null,
  primary key (project_id, cohort_id),
  foreign key (project_id, cohort_id) references cohorts (project_id, cohort_id) on delete cascade
);

create function pi_on_user_metrics_truncated() returns trigger language plpgsql as $$
begin
  delete from cohort_evaluations;
  return null;
end $$;
create trigger user_metrics_truncated_cohorts after truncate on user_metrics
  for each statement execute function pi_on_user_metrics_truncated();

-- Members go with their cohort, instead of a sweep of every member on every pass.
delete from cohort_members m
where not exists (select 1 from cohorts c where c.project_id = m.project_id and c.cohort_id = m.cohort_id);
alter table cohort_members add foreign key (project_id, cohort_id) references cohorts (project_id, cohort_id)
  on delete cascade;

-- Jobs -----------------------------------------------------------------------------------------------

-- Users whose job inputs changed since the jobs worker last looked: their events (stored, or erased
-- with their completions and interventions, which are written in the events' transaction) or their
-- properties. The worker re-targets and recounts those users only. job_changes keeps the changes that
-- concern every user of a project (job definitions, project settings, a replay's truncate), after
-- which the worker goes over all the project's users once.
create table job_user_changes (
  change_id bigint generated always as identity primary key,
  project_id uuid not null,
  user_id text not null
);
create index job_user_changes_project on job_user_changes (project_id);

create function pi_on_job_user_inputs_changed() returns trigger language plpgsql as $$
begin
  insert into job_user_changes (project_id, user_id) select distinct project_id, user_id from changed_rows;
  return null;
end $$;
drop trigger session_events_inserted_jobs on session_events;
drop trigger session_events_deleted_jobs on session_events;
drop trigger users_inserted_jobs on users;
drop trigger users_updated_jobs on users;
drop trigger users_deleted_jobs on users;
create trigger session_events_inserted_jobs after insert on session_events
  referencing new table as changed_rows for each statement execute function pi_on_job_user_inputs_changed();
create trigger session_events_deleted_jobs after delete on session_events
  referencing old table as changed_rows for each statement execute function pi_on_job_user_inputs_changed();
create trigger users_inserted_jobs after insert on users
  referencing new table as changed_rows for each statement execute function pi_on_job_user_inputs_changed();
create trigger users_updated_jobs after update on users
  referencing new table as changed_rows for each statement execute function pi_on_job_user_inputs_changed();
create trigger users_deleted_jobs after delete on users
  referencing old table as changed_rows for each statement execute function pi_on_job_user_inputs_changed();
-- Jobs refreshed before this migration have no facts kept yet: each project goes over all users once.
insert into job_changes (project_id) select distinct project_id from jobs where status <> 'draft';

-- Per job and user, what the user adds to the job's numbers (domain/jobs/facts.ts). Rows that add
-- nothing are not kept. Erasure subtracts the user's rows from the sums below and deletes them.
create table job_user_facts (
  project_id uuid not null,
  job_id text not null,
  user_id text not null,
  in_targets boolean not null,
  completed boolean not null,
  completion_ms bigint not null,
  shown integer not null,
  accepted integer not null,
  steps text[] not null,
  last_step text,
  primary key (project_id, job_id, user_id),
  foreign key (project_id, job_id) references jobs (project_id, job_id) on delete cascade
);
create index job_user_facts_user on job_user_facts (project_id, user_id);

-- The sums of the facts per job and per job and step; job_analytics is written from them.
create table job_sums (
  project_id uuid not null,
  job_id text not null,
  targeted integer not null,
  completed integer not null,
  completion_ms bigint not null,
  shown integer not null,
  accepted integer not null,
  primary key (project_id, job_id),
  foreign key (project_id, job_id) references jobs (project_id, job_id) on delete cascade
);
create table job_step_sums (
  project_id uuid not null,
  job_id text not null,
  step text not null,
  reached integer not null,
  dropped integer not null,
  primary key (project_id, job_id, step),
  foreign key (project_id, job_id) references jobs (project_id, job_id) on delete cascade
);
-- A user's interventions are counted per user now (and erased by user).
create index job_interventions_user on job_interventions (project_id, user_id);

-- Behavioural cohorts -----------------------------------------------------------------------------

-- When the worker last found a project's tables unchanged: the fingerprint (a scan of the project's
-- user_metrics) is taken at most once per recompute interval, not on every pass.
alter table behavioural_cohort_runs add column checked_at timestamptz;
