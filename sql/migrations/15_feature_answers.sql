-- The feature GETs read tables sized by features × days, never per-user rows (issue 4, deliver 3).
-- feature_daily and project_daily are additive daily tables written by the analytics processor like
-- the others. The distinct-user, discovery and tenure tables are kept by triggers on the per-user
-- rows they summarise, so every writer (processor, replay from a date, erasure) keeps them equal
-- to a recomputation from those rows.

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

-- Per user and feature, the triggers below walk the user's days in order: by user first.
alter table feature_user_daily drop constraint feature_user_daily_pkey,
  add primary key (project_id, feature, user_id, day);
-- A user's rows across features (first-seen changes, erasure).
create index feature_user_daily_user on feature_user_daily (project_id, user_id);

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

create function feature_reach_add(p uuid, f text, k text, d date, prev date, n integer, disc integer, ms bigint)
returns void language plpgsql as $$
declare
  left_users integer;
begin
  insert into feature_reach as r (project_id, feature, kind, day, prev_day, users, discovered, discovery_ms)
  values (p, f, k, d, coalesce(prev, '-infinity'), n, disc, ms)
  on conflict (project_id, feature, kind, day, prev_day) do update
    set users = r.users + excluded.users, discovered = r.discovered + excluded.discovered,
        discovery_ms = r.discovery_ms + excluded.discovery_ms
  returning r.users into left_users;
  if left_users = 0 then
    delete from feature_reach
    where project_id = p and feature = f and kind = k and day = d and prev_day = coalesce(prev, '-infinity');
  end if;
end $$;

-- Days from a user's first event to their first use of the feature, in ms (null when unknown).
create function feature_discovery_ms(first_used_at timestamptz, first_seen_at timestamptz)
returns bigint language sql immutable as $$
  select round(extract(epoch from first_used_at - first_seen_at) * 1000)::bigint
$$;

-- Adds (sign 1) or removes (-1) day d to/from the user's chain of days of kind k. Called before the
-- row changes, so d itself is never among the neighbours found; rows of the same statement that
-- were already processed are visible (row-level BEFORE trigger).
create function feature_reach_link(p uuid, f text, u text, k text, d date, sign integer)
returns void language plpgsql as $$
declare
  prev date;
  nxt date;
  ms bigint;
  disc integer := 0;
begin
  select max(day) into prev from feature_user_daily
  where project_id = p and feature = f and user_id = u and day < d and (k = 'seen' or uses > 0);
  select min(day) into nxt from feature_user_daily
  where project_id = p and feature = f and user_id = u and day > d and (k = 'seen' or uses > 0);
  if k = 'used' then
    select feature_discovery_ms(fu.first_used_at, m.first_seen_at) into ms
    from feature_users fu join user_metrics m on m.project_id = fu.project_id and m.user_id = fu.user_id
    where fu.project_id = p and fu.feature = f and fu.user_id = u;
    if ms is not null then disc := 1; end if;
  end if;
  ms := coalesce(ms, 0);
  perform feature_reach_add(p, f, k, d, prev, sign, sign * disc, sign * ms);
  if nxt is not null then
    perform feature_reach_add(p, f, k, nxt, prev, -sign, -sign * disc, -sign * ms);
    perform feature_reach_add(p, f, k, nxt, d, sign, sign * disc, sign * ms);
  end if;
end $$;

-- Moves the user's used edges of feature f from one days-to-discovery value to another.
create function feature_reach_revalue(p uuid, f text, u text, old_ms bigint, new_ms bigint)
returns void language plpgsql as $$
begin
  if old_ms is not distinct from new_ms then return; end if;
  update feature_reach r
  set discovered = r.discovered + (new_ms is not null)::int - (old_ms is not null)::int,
      discovery_ms = r.discovery_ms + coalesce(new_ms, 0) - coalesce(old_ms, 0)
  from (select day, coalesce(lag(day) over (order by day), '-infinity') as prev_day
        from feature_user_daily
        where project_id = p and feature = f and user_id = u and uses > 0) e
  where r.project_id = p and r.feature = f and r.kind = 'used' and r.day = e.day and r.prev_day = e.prev_day;
end $$;

create function tenure_bucket(d date, first_seen_at timestamptz) returns text language sql immutable as $$
  select case when d - (first_seen_at at time zone 'utc')::date < 7 then 'first_week'
              when d - (first_seen_at at time zone 'utc')::date >= 30 then 'month_2_plus' end
$$;

create function tenure_sessions_add(p uuid, f text, first_week integer, month_2_plus integer)
returns void language plpgsql as $$
declare
  fw integer;
  m2 integer;
begin
  if first_week = 0 and month_2_plus = 0 then return; end if;
  insert into tenure_sessions as t (project_id, feature, first_week, month_2_plus)
  values (p, f, first_week, month_2_plus)
  on conflict (project_id, feature) do update
    set first_week = t.first_week + excluded.first_week, month_2_plus = t.month_2_plus + excluded.month_2_plus
  returning t.first_week, t.month_2_plus into fw, m2;
  if fw = 0 and m2 = 0 then
    delete from tenure_sessions where project_id = p and feature = f;
  end if;
end $$;

-- Adds n sessions of day d of user u to feature f's (or, f = '', to all sessions') tenure bucket.
create function tenure_sessions_count(p uuid, f text, u text, d date, n integer)
returns void language plpgsql as $$
declare
  bucket text;
begin
  if n = 0 then return; end if;
  select tenure_bucket(d, first_seen_at) into bucket from user_metrics where project_id = p and user_id = u;
  perform tenure_sessions_add(p, f, case when bucket = 'first_week' then n else 0 end,
                              case when bucket = 'month_2_plus' then n else 0 end);
end $$;

create function feature_user_daily_answers() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    -- insert … on conflict fires this before finding the conflict: the update trigger then follows.
    if exists (select 1 from feature_user_daily
               where project_id = new.project_id and feature = new.feature and user_id = new.user_id and day = new.day) then
      return new;
    end if;
    perform feature_reach_link(new.project_id, new.feature, new.user_id, 'seen', new.day, 1);
    if new.uses > 0 then
      perform feature_reach_link(new.project_id, new.feature, new.user_id, 'used', new.day, 1);
    end if;
    perform tenure_sessions_count(new.project_id, new.feature, new.user_id, new.day, new.sessions_visible);
    return new;
  elsif tg_op = 'DELETE' then
    perform feature_reach_link(old.project_id, old.feature, old.user_id, 'seen', old.day, -1);
    if old.uses > 0 then
      perform feature_reach_link(old.project_id, old.feature, old.user_id, 'used', old.day, -1);
    end if;
    perform tenure_sessions_count(old.project_id, old.feature, old.user_id, old.day, -old.sessions_visible);
    return old;
  end if;
  if (old.uses > 0) <> (new.uses > 0) then
    perform feature_reach_link(new.project_id, new.feature, new.user_id, 'used', new.day,
                               case when new.uses > 0 then 1 else -1 end);
  end if;
  perform tenure_sessions_count(new.project_id, new.feature, new.user_id, new.day,
                                new.sessions_visible - old.sessions_visible);
  return new;
end $$;

create trigger feature_user_daily_answers before insert or update or delete on feature_user_daily
for each row execute function feature_user_daily_answers();

create function user_daily_tenure() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform tenure_sessions_count(new.project_id, '', new.user_id, new.day, new.sessions);
  elsif tg_op = 'DELETE' then
    perform tenure_sessions_count(old.project_id, '', old.user_id, old.day, -old.sessions);
  else
    perform tenure_sessions_count(new.project_id, '', new.user_id, new.day, new.sessions - old.sessions);
  end if;
  return null;
end $$;

create trigger user_daily_tenure after insert or update or delete on user_daily
for each row execute function user_daily_tenure();

create function feature_users_answers() returns trigger language plpgsql as $$
declare
  fs timestamptz;
begin
  select first_seen_at into fs from user_metrics
  where project_id = coalesce(new.project_id, old.project_id) and user_id = coalesce(new.user_id, old.user_id);
  if tg_op in ('UPDATE', 'DELETE') and old.first_used_at is not null then
    insert into feature_discovery as d (project_id, feature, method, users)
    values (old.project_id, old.feature, coalesce(old.first_use_source, ''), -1)
    on conflict (project_id, feature, method) do update set users = d.users - 1;
    delete from feature_discovery
    where project_id = old.project_id and feature = old.feature and method = coalesce(old.first_use_source, '')
      and users = 0;
  end if;
  if tg_op in ('UPDATE', 'INSERT') and new.first_used_at is not null then
    insert into feature_discovery as d (project_id, feature, method, users)
    values (new.project_id, new.feature, coalesce(new.first_use_source, ''), 1)
    on conflict (project_id, feature, method) do update set users = d.users + 1;
  end if;
  if tg_op = 'INSERT' then
    perform feature_reach_revalue(new.project_id, new.feature, new.user_id, null,
                                  feature_discovery_ms(new.first_used_at, fs));
  elsif tg_op = 'DELETE' then
    perform feature_reach_revalue(old.project_id, old.feature, old.user_id,
                                  feature_discovery_ms(old.first_used_at, fs), null);
  else
    perform feature_reach_revalue(new.project_id, new.feature, new.user_id,
                                  feature_discovery_ms(old.first_used_at, fs), feature_discovery_ms(new.first_used_at, fs));
  end if;
  return null;
end $$;

create trigger feature_users_answers after insert or update or delete on feature_users
for each row execute function feature_users_answers();

-- A user's first event moved: their days to discovery and the tenure of all their days change.
create function user_metrics_first_seen() returns trigger language plpgsql as $$
declare
  p uuid := coalesce(new.project_id, old.project_id);
  u text := coalesce(new.user_id, old.user_id);
  old_fs timestamptz;
  new_fs timestamptz;
  r record;
begin
  if tg_op in ('UPDATE', 'DELETE') then old_fs := old.first_seen_at; end if;
  if tg_op in ('UPDATE', 'INSERT') then new_fs := new.first_seen_at; end if;
  if old_fs is not distinct from new_fs then return null; end if;
  for r in select feature, first_used_at from feature_users where project_id = p and user_id = u and first_used_at is not null loop
    perform feature_reach_revalue(p, r.feature, u, feature_discovery_ms(r.first_used_at, old_fs),
                                  feature_discovery_ms(r.first_used_at, new_fs));
  end loop;
  for r in
    select '' as feature,
           sum(sessions * ((tenure_bucket(day, new_fs) is not distinct from 'first_week')::int - (tenure_bucket(day, old_fs) is not distinct from 'first_week')::int)) as fw,
           sum(sessions * ((tenure_bucket(day, new_fs) is not distinct from 'month_2_plus')::int - (tenure_bucket(day, old_fs) is not distinct from 'month_2_plus')::int)) as m2
    from user_daily where project_id = p and user_id = u
    union all
    select feature,
           sum(sessions_visible * ((tenure_bucket(day, new_fs) is not distinct from 'first_week')::int - (tenure_bucket(day, old_fs) is not distinct from 'first_week')::int)),
           sum(sessions_visible * ((tenure_bucket(day, new_fs) is not distinct from 'month_2_plus')::int - (tenure_bucket(day, old_fs) is not distinct from 'month_2_plus')::int))
    from feature_user_daily where project_id = p and user_id = u group by feature
  loop
    perform tenure_sessions_add(p, r.feature, coalesce(r.fw, 0)::int, coalesce(r.m2, 0)::int);
  end loop;
  return null;
end $$;

create trigger user_metrics_first_seen after insert or update of first_seen_at or delete on user_metrics
for each row execute function user_metrics_first_seen();
