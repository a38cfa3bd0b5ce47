-- Administration: jobs, cohorts, webhook subscriptions, reports, exports, rate limits, deletions.

create table jobs (
  project_id uuid not null references projects (project_id) on delete cascade,
  job_id text not null,
  name text not null,
  description text,
  goal text,
  status text not null default 'draft' check (status in ('draft', 'active', 'paused', 'completed', 'archived')),
  priority text check (priority in ('low', 'medium', 'high', 'critical')),
  target_audience jsonb,
  automation jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (project_id, job_id)
);
create index jobs_project_created on jobs (project_id, created_at desc, job_id);

-- Per-user behaviour metrics, maintained by the pipeline; custom cohorts are evaluated over them.
create table user_metrics (
  project_id uuid not null,
  user_id text not null,
  events integer not null default 0,
  days_active integer not null default 0,
  sessions integer not null default 0,
  features_used integer not null default 0,
  avg_session_seconds double precision,
  friction_index double precision,
  first_seen_at timestamptz,
  last_seen_at timestamptz,
  primary key (project_id, user_id)
);

create table cohorts (
  project_id uuid not null references projects (project_id) on delete cascade,
  cohort_id text not null,
  name text not null,
  type text not null default 'custom' check (type in ('custom', 'behavioral')),
  criteria jsonb not null,
  created_at timestamptz not null default now(),
  primary key (project_id, cohort_id)
);
create index cohorts_project_created on cohorts (project_id, created_at desc, cohort_id);

create table webhook_subscriptions (
  project_id uuid not null references projects (project_id) on delete cascade,
  webhook_id text not null,
  url text not null check (url like 'https://%'),
  events text[] not null check (cardinality(events) > 0),
  -- The signing secret must be readable to sign deliveries (Standard Webhooks); shown once.
  secret text not null,
  created_at timestamptz not null default now(),
  primary key (project_id, webhook_id)
);
create index webhook_subscriptions_project_created on webhook_subscriptions (project_id, created_at desc, webhook_id);

create table reports (
  project_id uuid not null references projects (project_id) on delete cascade,
  report_id text not null,
  name text not null,
  type text not null,
  schedule text not null,
  format text not null,
  recipients text[] not null,
  status text not null default 'queued',
  created_at timestamptz not null default now(),
  primary key (project_id, report_id)
);

create table warehouse_exports (
  project_id uuid not null references projects (project_id) on delete cascade,
  export_id text not null,
  destination text not null,
  -- Credentials are kept for the export worker; never returned by the API.
  credentials jsonb not null,
  tables text[] not null,
  status text not null default 'queued',
  created_at timestamptz not null default now(),
  primary key (project_id, export_id)
);

-- Fixed one-hour windows, shared by every API process.
create table rate_limit_windows (
  project_id uuid not null,
  window_start timestamptz not null,
  requests integer not null,
  primary key (project_id, window_start)
);

-- Users erased on request. Only a SHA-256 of the user id is kept: enough for the raw-sink and
-- replays to refuse the user's events received up to the deletion, and not the id itself.
create table deleted_users (
  project_id uuid not null,
  user_hash bytea not null,
  deleted_at timestamptz not null default now(),
  primary key (project_id, user_hash)
);

