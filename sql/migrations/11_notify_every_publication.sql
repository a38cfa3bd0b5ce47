-- Every published row announces itself on pi_stream (ids only), not only those the stream
-- forwards today: friction episodes and cohort changes too, for any listener that wants them.

create or replace function pi_on_friction_episode() returns trigger language plpgsql as $$
begin
  perform pi_enqueue_subscribed(new.project_id, 'user.friction_detected', new.user_id,
    jsonb_build_object('user_id', new.user_id, 'page', new.page, 'element', new.element, 'signal', new.signal,
                       'friction_index', new.friction_index, 'session_id', new.session_id,
                       'detected_at', pi_utc(new.detected_at)));
  perform pg_notify('pi_stream', json_build_object('table', 'friction_episodes', 'project_id', new.project_id,
                                                   'id', new.episode_id)::text);
  return null;
end $$;

create or replace function pi_on_cohort_change() returns trigger language plpgsql as $$
begin
  perform pi_enqueue_subscribed(new.project_id, 'cohort.changed', null,
    jsonb_build_object('cohort_id', new.cohort_id,
                       'name', (select c.name from cohorts c where c.project_id = new.project_id and c.cohort_id = new.cohort_id),
                       'added', to_jsonb(new.added[1:1000]), 'removed', to_jsonb(new.removed[1:1000]),
                       'added_count', cardinality(new.added), 'removed_count', cardinality(new.removed),
                       'size', new.size, 'changed_at', pi_utc(new.changed_at)));
  perform pg_notify('pi_stream', json_build_object('table', 'cohort_changes', 'project_id', new.project_id,
                                                   'id', new.change_id)::text);
  return null;
end $$;
