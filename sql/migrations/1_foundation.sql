-- Foundation: tenants, keys, users, raw events, processor offsets.
-- Every tenant table leads with project_id (the distribution column when scaled out with Citus).

create table projects (
  project_id uuid primary key default gen_random_uuid(),
  name text not null unique check (length(name) between 1 and 200),
  -- Rate tier: standard 1,000/h, pro 10,000/h, enterprise = rate_limit_per_hour.
  rate_tier text not null default 'standard' check (rate_tier in ('standard', 'pro', 'enterprise')),
  rate_limit_per_hour integer check (rate_limit_per_hour > 0),
  -- Per-project overrides of analytics thresholds and weights (validated by the app).
  settings jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  check (rate_tier <> 'enterprise' or rate_limit_per_hour is not null)
);

-- Keys are `pi_<key_id>_<secret>`; only a SHA-256 of the whole key is stored.
create table api_keys (
  project_id uuid not null references projects (project_id) on delete cascade,
  key_id text not null,
  secret_hash bytea not null,
  name text not null default '',
  scopes text[] not null check (scopes <@ array['events:write', 'analytics:read', 'admin']::text[] and cardinality(scopes) > 0),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  primary key (project_id, key_id)
);
create unique index api_keys_key_id on api_keys (key_id);

create table users (
  project_id uuid not null references projects (project_id) on delete cascade,
  user_id text not null,
  properties jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (project_id, user_id)
);

-- The raw event store (export, deletion, audit). Written only by the raw-sink processor;
-- idempotent on (project_id, message_id). No foreign key: a late event of a deleted project
-- must not stall the sink.
create table raw_events (
  project_id uuid not null,
  message_id text not null,
  user_id text not null,
  event text not null,
  properties jsonb not null,
  occurred_at timestamptz not null,
  received_at timestamptz not null,
  kafka_partition integer not null,
  kafka_offset bigint not null,
  primary key (project_id, message_id)
);
create index raw_events_project_time on raw_events (project_id, occurred_at);
create index raw_events_project_user_time on raw_events (project_id, user_id, occurred_at);

-- Kafka -> Postgres processors store the next offset to read in the same transaction as
-- their rows, so a restart resumes exactly after the last committed effect.
create table processor_offsets (
  processor text not null,
  topic text not null,
  partition integer not null,
  next_offset bigint not null check (next_offset >= 0),
  updated_at timestamptz not null default now(),
  primary key (processor, topic, partition)
);

-- Messages a processor could not decode or map: kept with the reason instead of being dropped,
-- written in the same transaction that moves the processor's offset past them.
create table dead_letters (
  processor text not null,
  topic text not null,
  partition integer not null,
  kafka_offset bigint not null,
  message_key text,
  payload bytea,
  error text not null,
  created_at timestamptz not null default now(),
  primary key (processor, topic, partition, kafka_offset)
);
