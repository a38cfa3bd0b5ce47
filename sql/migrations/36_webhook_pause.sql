-- A webhook subscription can be paused (PATCH /webhooks/{id} with status) and changed in place:
-- `status` says whether it takes new deliveries, `updated_at` when it last changed.
--
-- Paused: events are not queued for it (pi_enqueue_subscribed skips it), so nothing piles up for
-- later; deliveries queued before the pause stay pending and the senders leave them alone
-- (workers/webhooks/outbox.ts) until it is resumed, when they go out as they stand (to the URL of
-- that moment). A test delivery (event `test`, asked for explicitly) is sent even while paused.
alter table webhook_subscriptions
  add column status text not null default 'active' check (status in ('active', 'paused')),
  add column updated_at timestamptz not null default now();

create or replace function pi_enqueue_subscribed(p_project uuid, p_event text, p_user text, p_data jsonb) returns void
language sql as $$
  insert into webhook_deliveries (project_id, delivery_id, target, webhook_id, event, user_id, payload)
  select p_project, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'subscription', s.webhook_id, p_event, p_user,
         jsonb_build_object('event', p_event, 'data', p_data, 'timestamp', pi_utc(now()))
  from webhook_subscriptions s
  where s.project_id = p_project and p_event = any (s.events) and s.status = 'active'
$$;

-- A resumed subscription's held deliveries are due at once: wake the senders (a nudge, as for new
-- outbox rows), rather than leave them to the poll.
create function pi_on_webhook_resumed() returns trigger language plpgsql as $$
begin
  perform pg_notify('pi_webhooks', json_build_object('project_id', new.project_id, 'webhook_id', new.webhook_id)::text);
  return null;
end $$;
create trigger webhook_subscriptions_resumed after update of status on webhook_subscriptions
  for each row when (old.status = 'paused' and new.status = 'active') execute function pi_on_webhook_resumed();
