-- What a browser key may make the service say (docs/adr/0086-what-a-browser-key-may-make-the-service-say.md):
-- anyone may send with a browser key, so an event sent with one (its message id starts with `b:`,
-- api/routes/events.ts) makes the service sign no delivery — no integration webhook ("chats",
-- "walkthrough-progress") and no `job.completed` webhook. It still counts in the analytics, and the
-- completion still reaches the project's own stream.
drop trigger raw_events_integration on raw_events;
create trigger raw_events_integration after insert on raw_events for each row
  when (new.event = any (array['chat_created', 'chat_updated', 'walkthrough_step_completed'])
        and not starts_with(new.message_id, 'b:'))
  execute function pi_on_integration_event();

create or replace function pi_on_job_completion() returns trigger language plpgsql as $$
begin
  if not starts_with(new.message_id, 'b:') then
    perform pi_enqueue_subscribed(new.project_id, 'job.completed', new.user_id,
      jsonb_build_object('job_id', new.job_id, 'user_id', new.user_id, 'completed_at', pi_utc(new.completed_at)));
  end if;
  perform pg_notify('pi_stream', json_build_object('table', 'job_completions', 'project_id', new.project_id,
                                                   'id', new.completion_id)::text);
  return null;
end $$;
