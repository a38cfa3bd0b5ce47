-- The analytics pipeline (processors/analytics): its event store, sessions with the contribution
-- each made to the materialized tables, friction signals, and the daily tables the API reads.

-- The analytics processor's own copy of each event (what sessionization needs), so a late event
-- can re-split its user's sessions. Idempotent on (project, message id).
create table session_events (
  project_id uuid not null,
  user_id text not null,
  message_id text not null,
  occurred_at timestamptz not null,
  received_at timestamptz not null,
  kafka_offset bigint not null,
  event text not null,
  properties jsonb not null,
  primary key (project_id, message_id)
);
create index session_events_user_time on session_events (project_id, user_id, occurred_at);

-- A session and what it added to the daily tables (subtracted again when the session changes).
create table sessions (
  project_id uuid not null,
  session_id text not null,
  user_id text not null,
  day date not null,
  started_at timestamptz not null,
  ended_at timestamptz not null,
  events integer not null,
  contribution jsonb not null,
  primary key (project_id, session_id)
);
create index sessions_user_time on sessions (project_id, user_id, started_at);

create table friction_signals (
  project_id uuid not null,
  signal_id text not null,
  session_id text not null,
  user_id text not null,
  kind text not null check (kind in ('rage_click', 'dead_click', 'confusion_loop', 'backtrack', 'idle')),
  page text,
  element text,
  at timestamptz not null,
  count integer not null,
  timings_ms double precision[] not null,
  message_ids text[] not null,
  primary key (project_id, signal_id)
);
create index friction_signals_session on friction_signals (project_id, session_id);
create index friction_signals_user on friction_signals (project_id, user_id);

create table friction_page_daily (
  project_id uuid not null,
  page text not null,
  day date not null,
  views integer not null default 0,
  clicks integer not null default 0,
  dead_clicks integer not null default 0,
  rage_clicks integer not null default 0,
  rage_episodes integer not null default 0,
  loops integer not null default 0,
  loop_views integer not null default 0,
  backtracks integer not null default 0,
  active_ms bigint not null default 0,
  idle_ms bigint not null default 0,
  idle_gaps integer not null default 0,
  primary key (project_id, page, day)
);
create index friction_page_daily_day on friction_page_daily (project_id, day);

create table friction_element_daily (
  project_id uuid not null,
  page text not null,
  element text not null,
  day date not null,
  clicks integer not null default 0,
  dead_clicks integer not null default 0,
  rage_clicks integer not null default 0,
  rage_episodes integer not null default 0,
  primary key (project_id, page, element, day)
);

-- Users hit by friction on a page per day (users_affected); rows with zero signals are removed.
create table friction_page_users (
  project_id uuid not null,
  page text not null,
  day date not null,
  user_id text not null,
  signals integer not null,
  primary key (project_id, page, day, user_id)
);

create table user_daily (
  project_id uuid not null,
  user_id text not null,
  day date not null,
  sessions integer not null default 0,
  events integer not null default 0,
  duration_ms bigint not null default 0,
  primary key (project_id, user_id, day)
);
create index user_daily_day on user_daily (project_id, day);

create table feature_user_daily (
  project_id uuid not null,
  feature text not null,
  user_id text not null,
  day date not null,
  sessions_visible integer not null default 0,
  impressions integer not null default 0,
  uses integer not null default 0,
  empty_state_impressions integer not null default 0,
  data_volume_sum double precision not null default 0,
  data_volume_n integer not null default 0,
  primary key (project_id, feature, day, user_id)
);
create index feature_user_daily_day on feature_user_daily (project_id, day);

-- First sighting and first use of a feature by a user (over all sessions), with how it was found.
create table feature_users (
  project_id uuid not null,
  feature text not null,
  user_id text not null,
  first_seen_at timestamptz not null,
  first_used_at timestamptz,
  first_use_source text,
  primary key (project_id, feature, user_id)
);

create table event_context_daily (
  project_id uuid not null,
  event text not null,
  context text not null check (context in ('with_data_present', 'empty_state')),
  day date not null,
  count integer not null default 0,
  successes integer not null default 0,
  dead_click integer not null default 0,
  rage_click integer not null default 0,
  confusion_loop integer not null default 0,
  backtrack integer not null default 0,
  primary key (project_id, event, context, day)
);

-- A user's friction facts over all their sessions (their Friction Index, for cohorts).
create table user_friction (
  project_id uuid not null,
  user_id text not null,
  views integer not null default 0,
  clicks integer not null default 0,
  dead_clicks integer not null default 0,
  rage_clicks integer not null default 0,
  loop_views integer not null default 0,
  backtracks integer not null default 0,
  active_ms bigint not null default 0,
  idle_ms bigint not null default 0,
  primary key (project_id, user_id)
);
