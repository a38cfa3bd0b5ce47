-- users_affected of an element's friction point (issue 19): the users with a signal on that element,
-- not its page's users. The same pair of tables as for pages (migrations 3 and 17), one level down:
-- friction_element_users holds a user's signals per element and day (a sum of session
-- contributions), friction_element_reach the edges from each such day to the user's previous one on
-- the element, kept by the writers of friction_element_users through store/answer-tables.ts.
create table friction_element_users (
  project_id uuid not null,
  page text not null,
  element text not null,
  day date not null,
  user_id text not null,
  signals integer not null,
  primary key (project_id, page, element, day, user_id)
);
-- A user's rows across elements, by day (their share of friction_element_reach, erasure).
create index friction_element_users_user on friction_element_users (project_id, user_id, day);

create table friction_element_reach (
  project_id uuid not null,
  page text not null,
  element text not null,
  day date not null,
  prev_day date not null,
  users integer not null,
  primary key (project_id, page, element, day, prev_day)
);

-- From the stored contributions: their signals with a page and an element, on the session's day.
insert into friction_element_users (project_id, page, element, day, user_id, signals)
select s.project_id, sig->>'page', sig->>'element', (s.contribution->>'day')::date, s.user_id, count(*)::int
from sessions s cross join lateral jsonb_array_elements(s.contribution->'signals') sig
where sig->>'page' is not null and sig->>'element' is not null
group by 1, 2, 3, 4, 5;

insert into friction_element_reach (project_id, page, element, day, prev_day, users)
select project_id, page, element, day, prev_day, count(*)::int
from (
  select project_id, page, element, day,
         coalesce(lag(day) over (partition by project_id, page, element, user_id order by day), '-infinity') as prev_day
  from friction_element_users
) edges
group by 1, 2, 3, 4, 5;

-- The feature detail's usage_patterns and discovery_methods follow date_range like its metrics
-- (issue 19): tenure_sessions gains the session's day, feature_discovery the UTC day of the user's
-- first use. Both are rebuilt from the per-user rows, as store/answer-tables.ts computes them.
drop table tenure_sessions;
create table tenure_sessions (
  project_id uuid not null,
  feature text not null,
  day date not null,
  first_week integer not null default 0,
  month_2_plus integer not null default 0,
  primary key (project_id, feature, day)
);
insert into tenure_sessions (project_id, feature, day, first_week, month_2_plus)
select project_id, feature, day,
       coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'first_week'), 0)::int,
       coalesce(sum(n) filter (where tenure_bucket(day, first_seen_at) = 'month_2_plus'), 0)::int
from (
  select d.project_id, '' as feature, d.day, d.sessions as n, m.first_seen_at
  from user_daily d join user_metrics m using (project_id, user_id)
  union all
  select f.project_id, f.feature, f.day, f.sessions_visible, m.first_seen_at
  from feature_user_daily f join user_metrics m using (project_id, user_id)
) t
group by 1, 2, 3
having sum(n) filter (where tenure_bucket(day, first_seen_at) is not null) > 0;

drop table feature_discovery;
create table feature_discovery (
  project_id uuid not null,
  feature text not null,
  method text not null,
  day date not null,
  users integer not null,
  primary key (project_id, feature, method, day)
);
insert into feature_discovery (project_id, feature, method, day, users)
select project_id, feature, coalesce(first_use_source, ''), (first_used_at at time zone 'utc')::date, count(*)::int
from feature_users
where first_used_at is not null
group by 1, 2, 3, 4;
