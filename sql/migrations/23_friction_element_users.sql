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
