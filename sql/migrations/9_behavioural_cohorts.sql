-- Behavioural cohorts: clusters of users by behaviour (issue 5), recomputed by
-- processors/cohorts/behavioural.ts from the materialized tables alone (user_metrics,
-- user_friction, feature_users), so the same tables give the same rows, computed_at aside.

-- The last computation of a project: how k was chosen and who was left out.
create table behavioural_cohort_runs (
  project_id uuid primary key references projects (project_id) on delete cascade,
  k integer not null,
  silhouette double precision,
  users_clustered integer not null,
  users_excluded integer not null,
  definition jsonb not null,
  -- What the run was computed from; an unchanged fingerprint skips the next computation.
  fingerprint text not null,
  computed_at timestamptz not null
);

create table behavioural_cohorts (
  project_id uuid not null references projects (project_id) on delete cascade,
  cohort_id text not null,
  name text not null,
  size integer not null,
  percentage double precision not null,
  characteristics jsonb not null,
  -- Log-scaled, unstandardised centroid: the next run matches its clusters against it to keep ids.
  centroid jsonb not null,
  -- Standardised centroid: how the cohort differs from all clustered users (its name comes from it).
  traits jsonb not null,
  churn_risk text not null check (churn_risk in ('very_low', 'low', 'medium', 'high', 'very_high')),
  expansion_opportunity text not null check (expansion_opportunity in ('high', 'medium', 'low')),
  computed_at timestamptz not null,
  primary key (project_id, cohort_id)
);

-- Holds user ids: erased with the user (lib/user-data.ts).
create table behavioural_cohort_members (
  project_id uuid not null,
  cohort_id text not null,
  user_id text not null,
  -- The user's behaviour vector the cohort was computed from.
  features jsonb not null,
  primary key (project_id, cohort_id, user_id),
  foreign key (project_id, cohort_id) references behavioural_cohorts (project_id, cohort_id) on delete cascade
);
create index behavioural_cohort_members_user on behavioural_cohort_members (project_id, user_id);

-- Size over time: a cohort's size at the last computation of each UTC day.
create table behavioural_cohort_sizes (
  project_id uuid not null,
  cohort_id text not null,
  day date not null,
  size integer not null,
  primary key (project_id, cohort_id, day)
);
