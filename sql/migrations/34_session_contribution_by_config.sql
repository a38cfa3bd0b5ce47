-- A session's contribution (~3 KB of JSON) was written with every change to the session and read
-- back to be taken away again: compressed on write, parsed on read, a dead 3 KB row each time. The
-- analytics sink now holds the contributions of its users' last chains in memory; a writer that
-- takes away a stored session's contribution computes it again from the session's events with the
-- config it was computed with (`config_version`, one row per effective config here). Only the
-- features' firsts, which feature_users is refreshed from in SQL, stay on the row. Rows written
-- before keep their contribution and no version.
create table analytics_configs (
  project_id uuid not null,
  version text not null,
  config jsonb not null,
  created_at timestamptz not null default now(),
  constraint analytics_configs_pkey primary key (project_id, version)
);

alter table sessions alter column contribution drop not null;
alter table sessions add column config_version text;
alter table sessions add column features json;
alter table sessions add constraint sessions_contribution_or_version
  check (contribution is not null or (config_version is not null and features is not null));
