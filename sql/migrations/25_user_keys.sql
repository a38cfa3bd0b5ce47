-- Erasure that reaches Kafka (issue 18; docs/decisions.md, "Erasure through Kafka"): crypto-shredding.
-- Kafka messages are keyed by a pseudonym (an HMAC of the user id with the project's secret below), and
-- what names the user travels sealed with a key of the user's own, kept here. Erasing the user deletes
-- the key, and with it the meaning of every copy of the user's messages: topics, replays, backups.

-- The project's secret for pseudonyms: 256 bits from two random UUIDs (244 random bits), made here so
-- that projects created before this migration get one too.
alter table projects
  add column pseudonym_secret bytea not null
    default sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8'));

-- One key per user and project, made by the API with the user's first message.
create table user_keys (
  project_id uuid not null references projects (project_id) on delete cascade,
  user_ref text not null,
  key bytea not null check (length(key) = 32),
  created_at timestamptz not null default now(),
  primary key (project_id, user_ref)
);

-- Export files on the service's disk (DuckDB, Parquet) may hold an erased user's rows: the erasure asks
-- the retention worker (which runs where the files are) to delete the project's files written before it.
create table export_file_purges (
  project_id uuid primary key references projects (project_id) on delete cascade,
  requested_at timestamptz not null default now()
);
