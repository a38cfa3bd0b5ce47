-- The feature GETs read tables sized by features × days, never per-user rows (issue 4, deliver 3).
-- feature_daily and project_daily are additive daily tables written by the analytics processor like
-- the others. The distinct-user, tenure and discovery tables are sums over users of what each user's
-- rows imply (lib/feature-answers.ts): every writer of per-user rows (processor, replay from a date,
-- erasure) moves them from its users' share before its change to their share after it.

create table feature_daily (
  project_id uuid not null,
  feature text not null,
  day date not null,
  sessions_visible integer not null default 0,
  impressions integer not null default 0,
  uses integer not null default 0,
  empty_state_impressions integer not null default 0,
  data_volume_sum double precision not null default 0,
  data_volume_n integer not null default 0,
  primary key (project_id, feature, day)
);
create index feature_daily_day on feature_daily (project_id, day);

create table project_daily (
  project_id uuid not null,
  day date not null,
  sessions integer not null default 0,
  primary key (project_id, day)
);

-- A user's rows across features, by day (their share of the tables below, segments, erasure).
create index feature_user_daily_user on feature_user_daily (project_id, user_id, day);

-- Distinct users over any date range without per-user rows. Each day a user saw (kind 'seen') or
-- used ('used') a feature is an edge from the previous such day of that user and feature
-- ('-infinity' for the first). A user active in [a, b] has exactly one edge with a <= day <= b and
-- prev_day < a (their first active day in the range), so the distinct count over [a, b] is the sum
-- of users over those edges. Used edges also carry the users' days to discovery (first use of the
-- feature − first event of the user, in ms; `discovered` counts users for whom both are known).
create table feature_reach (
  project_id uuid not null,
  feature text not null,
  kind text not null check (kind in ('seen', 'used')),
  day date not null,
  prev_day date not null,
  users integer not null,
  discovered integer not null default 0,
  discovery_ms bigint not null default 0,
  primary key (project_id, feature, kind, day, prev_day)
);
create index feature_reach_day on feature_reach (project_id, day);

-- Sessions by the user's tenure on the session's day (day − UTC date of the user's first event):
-- first week (< 7 days) and month 2 on (>= 30 days), all time. feature '' is every session; a
-- feature's rows count the sessions in which it was visible.
create table tenure_sessions (
  project_id uuid not null,
  feature text not null,
  first_week integer not null default 0,
  month_2_plus integer not null default 0,
  primary key (project_id, feature)
);

-- Users who ever used a feature, by how they discovered it (feature_users.first_use_source).
create table feature_discovery (
  project_id uuid not null,
  feature text not null,
  method text not null,
  users integer not null,
  primary key (project_id, feature, method)
);

-- Days from a user's first event to their first use of a feature, in whole ms (null when unknown):
-- sums of integers do not depend on the order of additions.
create function feature_discovery_ms(first_used_at timestamptz, first_seen_at timestamptz)
returns bigint language sql immutable as $$
  select round(extract(epoch from first_used_at - first_seen_at) * 1000)::bigint
$$;

create function tenure_bucket(d date, first_seen_at timestamptz) returns text language sql immutable as $$
  select case when d - (first_seen_at at time zone 'utc')::date < 7 then 'first_week'
              when d - (first_seen_at at time zone 'utc')::date >= 30 then 'month_2_plus' end
$$;
