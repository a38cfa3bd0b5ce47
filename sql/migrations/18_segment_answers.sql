-- Feature answers per segment (a value of a user property listed in the project's
-- analytics.segments.properties, default ["plan"]) without per-user rows (issue 4, deliver 3): the
-- same sums and reach edges as feature_daily, project_daily and feature_reach (migration 15), over
-- the users whose current property has that value. Kept by lib/answer-tables.ts like the others; a
-- change of a user's properties through the API moves the user's share between segments.
create table segment_daily (
  project_id uuid not null,
  segment_key text not null,
  segment_value text not null,
  day date not null,
  sessions integer not null default 0,
  primary key (project_id, segment_key, segment_value, day)
);

create table segment_feature_daily (
  project_id uuid not null,
  segment_key text not null,
  segment_value text not null,
  feature text not null,
  day date not null,
  sessions_visible integer not null default 0,
  impressions integer not null default 0,
  uses integer not null default 0,
  empty_state_impressions integer not null default 0,
  data_volume_sum double precision not null default 0,
  data_volume_n integer not null default 0,
  primary key (project_id, segment_key, segment_value, feature, day)
);

create table segment_feature_reach (
  project_id uuid not null,
  segment_key text not null,
  segment_value text not null,
  feature text not null,
  kind text not null check (kind in ('seen', 'used')),
  day date not null,
  prev_day date not null,
  users integer not null,
  discovered integer not null default 0,
  discovery_ms bigint not null default 0,
  primary key (project_id, segment_key, segment_value, feature, kind, day, prev_day)
);

-- Existing data: every user's share, with the projects' segment properties (defaulted as in
-- lib/analytics-config.ts) and the same rule for what is a segment value (lib/answer-tables.ts).
create temporary table segment_members on commit drop as
select u.project_id, u.user_id, k.key as segment_key, u.properties->>k.key as segment_value
from users u
join projects p using (project_id)
cross join lateral jsonb_array_elements_text(
  coalesce(p.settings->'analytics'->'segments'->'properties', '["plan"]'::jsonb)
) as k(key)
where jsonb_typeof(u.properties->k.key) in ('string', 'number', 'boolean') and length(u.properties->>k.key) <= 200;

insert into segment_daily (project_id, segment_key, segment_value, day, sessions)
select m.project_id, m.segment_key, m.segment_value, d.day, sum(d.sessions)::int
from segment_members m join user_daily d using (project_id, user_id)
group by 1, 2, 3, 4;

insert into segment_feature_daily (project_id, segment_key, segment_value, feature, day, sessions_visible, impressions,
                                   uses, empty_state_impressions, data_volume_sum, data_volume_n)
select m.project_id, m.segment_key, m.segment_value, f.feature, f.day, sum(f.sessions_visible)::int,
       sum(f.impressions)::int, sum(f.uses)::int, sum(f.empty_state_impressions)::int, sum(f.data_volume_sum),
       sum(f.data_volume_n)::int
from segment_members m join feature_user_daily f using (project_id, user_id)
group by 1, 2, 3, 4, 5;

insert into segment_feature_reach (project_id, segment_key, segment_value, feature, kind, day, prev_day, users,
                                   discovered, discovery_ms)
with f as (
  select d.project_id, d.user_id, d.feature, d.day, d.uses,
         feature_discovery_ms(fu.first_used_at, um.first_seen_at) as ms
  from feature_user_daily d
  left join feature_users fu using (project_id, user_id, feature)
  left join user_metrics um using (project_id, user_id)
),
e as (
  select project_id, user_id, feature, 'seen' as kind, day,
         coalesce(lag(day) over (partition by project_id, feature, user_id order by day), '-infinity') as prev_day,
         null::bigint as ms
  from f
  union all
  select project_id, user_id, feature, 'used', day,
         coalesce(lag(day) over (partition by project_id, feature, user_id order by day), '-infinity'), ms
  from f where uses > 0
)
select m.project_id, m.segment_key, m.segment_value, e.feature, e.kind, e.day, e.prev_day, count(*)::int,
       count(e.ms)::int, coalesce(sum(e.ms), 0)::bigint
from segment_members m join e using (project_id, user_id)
group by 1, 2, 3, 4, 5, 6, 7;
