-- Workflows: materialized paths to goals (issue 5). processors/paths/worker.ts recomputes a
-- project's goals when its events change and replaces their rows in one transaction. No table
-- here holds a user id: erasing a user marks the project changed, and the next pass forgets them.

-- Projects whose events changed since their workflows were last computed: one row per statement
-- that wrote or erased events (an append-only log, so concurrent writers never wait on each
-- other). The worker deletes the rows it has seen in the transaction that recomputes.
create table workflow_changes (
  change_id bigint generated always as identity primary key,
  project_id uuid not null
);
create index workflow_changes_project on workflow_changes (project_id);

create function pi_on_session_events_changed() returns trigger language plpgsql as $$
begin
  insert into workflow_changes (project_id) select distinct project_id from changed_rows;
  return null;
end $$;
create trigger session_events_inserted_workflows after insert on session_events
  referencing new table as changed_rows for each statement execute function pi_on_session_events_changed();
create trigger session_events_deleted_workflows after delete on session_events
  referencing old table as changed_rows for each statement execute function pi_on_session_events_changed();
-- A replay truncates session_events: every project with workflows is then changed.
create function pi_on_session_events_truncated() returns trigger language plpgsql as $$
begin
  insert into workflow_changes (project_id) select distinct project_id from workflow_goals;
  return null;
end $$;
create trigger session_events_truncated_workflows after truncate on session_events
  for each statement execute function pi_on_session_events_truncated();

-- The goals materialized for a project: active Job goals and declared goals (read afresh on every
-- pass), plus any goal asked for through GET /analytics/workflows?goal= (requested, kept).
create table workflow_goals (
  project_id uuid not null references projects (project_id) on delete cascade,
  goal text not null,
  requested boolean not null default false,
  -- null until the first computation
  computed_at timestamptz,
  attempts integer not null default 0,
  completions integer not null default 0,
  primary key (project_id, goal)
);

create table workflows (
  project_id uuid not null,
  goal text not null,
  workflow_id text not null,
  -- order within the goal: most occurrences first, "other" last
  rank integer not null,
  path text[] not null,
  occurrences integer not null,
  frequency double precision not null,
  users integer not null,
  user_share double precision not null,
  completion_rate double precision not null,
  avg_time_seconds double precision not null,
  efficiency_score double precision not null,
  optimal_steps integer not null,
  actual_avg_steps double precision not null,
  primary key (project_id, workflow_id),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);
create index workflows_goal on workflows (project_id, goal, rank);

-- Each step of a workflow with its page's friction facts over all days (the Friction Index is
-- computed when read, with the project's weights in force) and the kinds of signal seen there.
create table workflow_steps (
  project_id uuid not null,
  workflow_id text not null,
  position integer not null,
  step text not null,
  views integer not null,
  clicks integer not null,
  dead_clicks integer not null,
  rage_clicks integer not null,
  loop_views integer not null,
  backtracks integer not null,
  active_ms bigint not null,
  idle_ms bigint not null,
  common_issues text[] not null,
  primary key (project_id, workflow_id, position),
  foreign key (project_id, workflow_id) references workflows (project_id, workflow_id) on delete cascade
);
