-- A behavioural cohort's top features are computed with it (workers/behavioural-cohorts), like its
-- members and traits: counting them over every member on each GET cost 263 ms at 50,000 members.
-- Up to 10 of { feature, users }: the features most members use, ties by name.
alter table behavioural_cohorts add column top_features jsonb not null default '[]';

update behavioural_cohorts b set top_features = t.features
from (
  select project_id, cohort_id,
         jsonb_agg(jsonb_build_object('feature', feature, 'users', users) order by users desc, feature) as features
  from (
    select m.project_id, m.cohort_id, f.feature, count(*)::int as users,
           row_number() over (partition by m.project_id, m.cohort_id order by count(*) desc, f.feature) as rank
    from behavioural_cohort_members m
    join feature_users f on f.project_id = m.project_id and f.user_id = m.user_id and f.first_used_at is not null
    group by m.project_id, m.cohort_id, f.feature) ranked
  where rank <= 10
  group by project_id, cohort_id) t
where b.project_id = t.project_id and b.cohort_id = t.cohort_id;
