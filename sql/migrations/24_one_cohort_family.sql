-- One cohort family (issue 19): custom and behavioural cohorts share one id space, the rows of
-- `cohorts` (its primary key is what makes the ids unique within a project). A behavioural cohort
-- has its row there too (type 'behavioral', no criteria), kept by the behavioural-cohorts worker
-- (created at its first computation, renamed when recomputed, deleted when it is no longer found);
-- its computed numbers stay in behavioural_cohorts, which now hangs off that row. Membership changes
-- of both types are cohort_changes rows, published as cohort.changed and on the stream's
-- cohort_changes channel.

-- Only custom cohorts have criteria (the membership worker evaluates those alone).
alter table cohorts alter column criteria drop not null;
alter table cohorts add constraint cohorts_criteria_of_custom check ((type = 'custom') = (criteria is not null));

-- Behavioural cohorts computed so far, created when their size history starts.
insert into cohorts (project_id, cohort_id, name, type, criteria, created_at)
select b.project_id, b.cohort_id, b.name, 'behavioral', null,
       coalesce((select min(s.day)::timestamp at time zone 'utc' from behavioural_cohort_sizes s
                 where s.project_id = b.project_id and s.cohort_id = b.cohort_id), b.computed_at)
from behavioural_cohorts b;
alter table behavioural_cohorts add foreign key (project_id, cohort_id) references cohorts (project_id, cohort_id)
  on delete cascade;

-- A change names its cohort as it was then: a cohort deleted or renamed later keeps its announced name.
alter table cohort_changes add column name text, add column type text;
update cohort_changes x set name = c.name from cohorts c where c.project_id = x.project_id and c.cohort_id = x.cohort_id;
update cohort_changes set type = 'custom';
alter table cohort_changes alter column type set not null,
  add constraint cohort_changes_type check (type in ('custom', 'behavioral'));
-- Ids made in one place for every writer (the membership worker, the behavioural worker, DELETE /cohorts).
alter table cohort_changes alter column change_id set default 'cc_' || replace(gen_random_uuid()::text, '-', '');
-- The stream's catch-up reads the last minutes of changes.
create index cohort_changes_changed on cohort_changes (changed_at);

-- The data of a cohort.changed message, for the webhook delivery and the stream alike. Member lists
-- are capped (payloads stay small); the counts are always whole.
create function pi_cohort_change_data(c cohort_changes) returns jsonb language sql stable as $$
  select jsonb_build_object('cohort_id', c.cohort_id, 'name', c.name, 'type', c.type,
                            'added', to_jsonb(c.added[1:1000]), 'removed', to_jsonb(c.removed[1:1000]),
                            'added_count', cardinality(c.added), 'removed_count', cardinality(c.removed),
                            'size', c.size, 'changed_at', pi_utc(c.changed_at))
$$;

create or replace function pi_on_cohort_change() returns trigger language plpgsql as $$
begin
  perform pi_enqueue_subscribed(new.project_id, 'cohort.changed', null, pi_cohort_change_data(new));
  perform pg_notify('pi_stream', json_build_object('table', 'cohort_changes', 'project_id', new.project_id,
                                                   'id', new.change_id)::text);
  return null;
end $$;
