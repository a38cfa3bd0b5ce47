-- Jobs come alive: who each active job targets, the interventions shown and accepted, and the
-- job analytics the targeting worker materializes (GET /analytics/jobs/{id}, metrics in /jobs).

create table job_targets (
  project_id uuid not null,
  job_id text not null,
  user_id text not null,
  since timestamptz not null default now(),
  primary key (project_id, job_id, user_id)
);

-- One row per tracked intervention event (intervention_shown / intervention_accepted).
create table job_interventions (
  project_id uuid not null,
  message_id text not null,
  job_id text not null,
  user_id text not null,
  kind text not null check (kind in ('shown', 'accepted')),
  intervention text,
  occurred_at timestamptz not null,
  primary key (project_id, message_id)
);
create index job_interventions_job on job_interventions (project_id, job_id);

-- The answer of GET /analytics/jobs/{id}, replaced whole at each refresh of the job.
create table job_analytics (
  project_id uuid not null,
  job_id text not null,
  users_targeted integer not null,
  users_completed integer not null,
  completion_rate double precision not null,
  avg_time_to_completion double precision not null,
  interventions_shown integer not null,
  interventions_accepted integer not null,
  intervention_acceptance_rate double precision not null,
  drop_off_points jsonb not null,
  computed_at timestamptz not null default now(),
  primary key (project_id, job_id)
);
