-- users_affected of GET /analytics/friction over any date range without per-user rows (issue 4,
-- deliver 3), as feature_reach does for features (migration 15): each day a user had friction on a
-- page is an edge from that user's previous such day on the page ('-infinity' for the first). A
-- user affected in [a, b] has exactly one edge with a <= day <= b and prev_day < a, so the distinct
-- count over [a, b] is the sum of users over those edges. Kept by the writers of
-- friction_page_users through lib/answer-tables.ts, like the feature answer tables.
create table friction_page_reach (
  project_id uuid not null,
  page text not null,
  day date not null,
  prev_day date not null,
  users integer not null,
  primary key (project_id, page, day, prev_day)
);

-- A user's rows across pages, by day (their share of friction_page_reach, erasure).
create index friction_page_users_user on friction_page_users (project_id, user_id, day);

insert into friction_page_reach (project_id, page, day, prev_day, users)
select project_id, page, day, prev_day, count(*)::int
from (
  select project_id, page, day,
         coalesce(lag(day) over (partition by project_id, page, user_id order by day), '-infinity') as prev_day
  from friction_page_users
) edges
group by 1, 2, 3, 4;
