-- date_range on workflows and job analytics (issue 19; docs/decisions.md, "Windows on workflows, job
-- analytics and cohorts"). The workers keep, beside their all-time sums, the same sums per UTC day, so
-- a GET sums the days of its window instead of mining again; distinct users come from reach edges
-- (each day a user was counted is an edge from their previous such day), as for friction.

-- A workflow attempt belongs to its session's day (sessions.day, the UTC day of its start).
alter table workflow_attempts add column day date;
update workflow_attempts a set day = s.day from sessions s where s.project_id = a.project_id and s.session_id = a.session_id;
-- Attempts of sessions gone since their last pass are dropped by the next one; none is left without a day.
delete from workflow_attempts where day is null;
alter table workflow_attempts alter column day set not null;

create table workflow_path_days (
  project_id uuid not null,
  goal text not null,
  day date not null,
  path text not null,
  occurrences integer not null,
  duration_ms bigint not null,
  raw_steps bigint not null,
  primary key (project_id, goal, day, path),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);

create table workflow_first_step_days (
  project_id uuid not null,
  goal text not null,
  day date not null,
  first_step text not null,
  attempts integer not null,
  completions integer not null,
  primary key (project_id, goal, day, first_step),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);

create table workflow_length_days (
  project_id uuid not null,
  goal text not null,
  day date not null,
  merged_steps integer not null,
  completions integer not null,
  primary key (project_id, goal, day, merged_steps),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);

-- Distinct users who completed a goal along a path in any window.
create table workflow_path_reach (
  project_id uuid not null,
  goal text not null,
  path text not null,
  day date not null,
  prev_day date not null,
  users integer not null,
  primary key (project_id, goal, path, day, prev_day),
  foreign key (project_id, goal) references workflow_goals (project_id, goal) on delete cascade
);

insert into workflow_path_days (project_id, goal, day, path, occurrences, duration_ms, raw_steps)
select project_id, goal, day, path, count(*)::int, sum(duration_ms)::bigint, sum(raw_steps)::bigint
from workflow_attempts where completed group by 1, 2, 3, 4;

insert into workflow_first_step_days (project_id, goal, day, first_step, attempts, completions)
select project_id, goal, day, coalesce((path::jsonb)->>0, ''), count(*)::int, (count(*) filter (where completed))::int
from workflow_attempts group by 1, 2, 3, 4;

insert into workflow_length_days (project_id, goal, day, merged_steps, completions)
select project_id, goal, day, merged_steps, count(*)::int
from workflow_attempts where completed and merged_steps > 0 group by 1, 2, 3, 4;

insert into workflow_path_reach (project_id, goal, path, day, prev_day, users)
select project_id, goal, path, day, prev_day, count(*)::int
from (
  select project_id, goal, path, day,
         coalesce(lag(day) over (partition by project_id, goal, path, user_id order by day), '-infinity') as prev_day
  from (select distinct project_id, goal, path, user_id, day from workflow_attempts where completed) d
) e
group by 1, 2, 3, 4, 5;

-- Distinct users with a session in any window (the windowed workflows' user_share denominator), kept
-- with the other answer tables by store/answer-tables.ts.
create table user_reach (
  project_id uuid not null,
  day date not null,
  prev_day date not null,
  users integer not null,
  primary key (project_id, day, prev_day)
);
insert into user_reach (project_id, day, prev_day, users)
select project_id, day, prev_day, count(*)::int
from (
  select project_id, day,
         coalesce(lag(day) over (partition by project_id, user_id order by day), '-infinity') as prev_day
  from user_daily where sessions > 0
) e
group by 1, 2, 3;

-- A job's facts about a user belong to the UTC day of the user's first event received after the job
-- was created (their start on the job); null when there is none: such a user counts in the all-time
-- numbers only. The day is filled by the jobs worker's next pass over all users (job_changes).
alter table job_user_facts add column day date;

create table job_day_sums (
  project_id uuid not null,
  job_id text not null,
  day date not null,
  targeted integer not null,
  completed integer not null,
  completion_ms bigint not null,
  shown integer not null,
  accepted integer not null,
  primary key (project_id, job_id, day),
  foreign key (project_id, job_id) references jobs (project_id, job_id) on delete cascade
);

create table job_step_day_sums (
  project_id uuid not null,
  job_id text not null,
  day date not null,
  step text not null,
  reached integer not null,
  dropped integer not null,
  primary key (project_id, job_id, day, step),
  foreign key (project_id, job_id) references jobs (project_id, job_id) on delete cascade
);

insert into job_changes (project_id) select distinct project_id from jobs where status <> 'draft';
