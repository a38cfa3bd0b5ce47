-- A tracked event is delivered to the integration endpoint once, however often its raw row is
-- written: a replay of the raw-sink deletes and re-inserts raw_events, which fires the trigger
-- again. The delivery remembers its source event, and a second one for it is not queued.

alter table webhook_deliveries add column source_id text;
create unique index webhook_deliveries_source on webhook_deliveries (project_id, source_id) where source_id is not null;

create or replace function pi_on_integration_event() returns trigger language plpgsql as $$
declare
  kind text := case when new.event in ('chat_created', 'chat_updated') then 'chats' else 'walkthrough-progress' end;
  props jsonb;
begin
  if not exists (select 1 from integration_webhooks i where i.project_id = new.project_id and kind = any (i.events)) then
    return null;
  end if;
  props := case kind
    when 'chats' then jsonb_build_object('chat_id', new.properties->>'chat_id', 'actor', new.properties->>'actor',
                                         'chat_type', new.properties->>'chat_type', 'tenant_id', new.properties->>'tenant_id',
                                         'status', case new.event when 'chat_created' then 'created' else 'updated' end)
    else jsonb_build_object('walkthrough_id', new.properties->>'walkthrough_id', 'step_id', new.properties->>'step_id',
                            'step_index', new.properties->'step_index', 'total_steps', new.properties->'total_steps',
                            -- compared as JSON, so a malformed property never fails the raw-sink's insert
                            'completed', jsonb_typeof(new.properties->'step_index') = 'number'
                                         and new.properties->'step_index' = new.properties->'total_steps')
  end;
  insert into webhook_deliveries (project_id, delivery_id, target, event, user_id, payload, source_id)
  values (new.project_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'integration', kind, new.user_id,
          jsonb_build_object('event', kind, 'timestamp', pi_utc(new.occurred_at), 'properties', props, 'user_id', new.user_id),
          'raw:' || new.message_id)
  on conflict (project_id, source_id) where source_id is not null do nothing;
  return null;
end $$;
