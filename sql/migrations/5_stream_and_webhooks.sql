-- Stream and webhook delivery: the rows that are published (job completions, friction episodes,
-- cohort changes, next to friction_alerts), the webhook outbox and its delivery log, and the
-- triggers that write outbox rows in the transaction of their cause and wake listeners with ids.

-- One completion per (job, user): the first time a targeted user reached the job's goal.
create table job_completions (
  project_id uuid not null,
  job_id text not null,
  user_id text not null,
  completion_id text not null,
  completed_at timestamptz not null,
  message_id text not null,
  created_at timestamptz not null default now(),
  primary key (project_id, job_id, user_id),
  unique (project_id, completion_id)
);
create index job_completions_created on job_completions (created_at);
create index friction_alerts_created on friction_alerts (created_at);

-- A friction episode of a user worth telling a customer about (user.friction_detected).
-- The id comes from the user, kind and first event, so re-splitting sessions never re-announces it.
create table friction_episodes (
  project_id uuid not null,
  episode_id text not null,
  user_id text not null,
  session_id text not null,
  signal text not null,
  page text,
  element text,
  friction_index double precision not null,
  detected_at timestamptz not null,
  created_at timestamptz not null default now(),
  primary key (project_id, episode_id)
);

-- Live membership of custom cohorts, and each change of it (cohort.changed).
create table cohort_members (
  project_id uuid not null,
  cohort_id text not null,
  user_id text not null,
  since timestamptz not null default now(),
  primary key (project_id, cohort_id, user_id)
);
create table cohort_changes (
  project_id uuid not null,
  change_id text not null,
  cohort_id text not null,
  added text[] not null,
  removed text[] not null,
  size integer not null,
  changed_at timestamptz not null default now(),
  primary key (project_id, change_id)
);

-- The outbound integration endpoint of a project (Settings → Integrations → Webhooks → Connect).
create table integration_webhooks (
  project_id uuid primary key references projects (project_id) on delete cascade,
  url text not null check (url like 'https://%'),
  events text[] not null,
  secret text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The outbox: a delivery is a row before it is a request. delivery_id is the webhook-id header,
-- the same on every attempt and on manual redelivery.
create table webhook_deliveries (
  project_id uuid not null references projects (project_id) on delete cascade,
  delivery_id text not null,
  target text not null check (target in ('subscription', 'integration')),
  -- the subscription delivered to; null for the integration endpoint
  webhook_id text,
  event text not null,
  -- whose data the payload carries (erasure deletes the user's deliveries)
  user_id text,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  -- attempts ever made, and how many of them came before the current round (a redelivery starts a round)
  attempts integer not null default 0,
  round_start integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- a sender holds a delivery until then; a sender killed mid-request lets it go when it passes
  locked_until timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (project_id, delivery_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_listing on webhook_deliveries (project_id, created_at desc);

create table webhook_attempts (
  project_id uuid not null,
  delivery_id text not null,
  attempt integer not null,
  url text not null,
  started_at timestamptz not null default now(),
  duration_ms integer,
  -- null while in flight (or when the sender died during the request)
  status integer,
  error text,
  primary key (project_id, delivery_id, attempt),
  foreign key (project_id, delivery_id) references webhook_deliveries (project_id, delivery_id) on delete cascade
);

create function pi_utc(t timestamptz) returns text language sql immutable as $$
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- Queues one delivery per subscription of the project that asked for this event kind.
create function pi_enqueue_subscribed(p_project uuid, p_event text, p_user text, p_data jsonb) returns void
language sql as $$
  insert into webhook_deliveries (project_id, delivery_id, target, webhook_id, event, user_id, payload)
  select p_project, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'subscription', s.webhook_id, p_event, p_user,
         jsonb_build_object('event', p_event, 'data', p_data, 'timestamp', pi_utc(now()))
  from webhook_subscriptions s
  where s.project_id = p_project and p_event = any (s.events)
$$;

create function pi_on_friction_alert() returns trigger language plpgsql as $$
begin
  perform pg_notify('pi_stream', json_build_object('table', 'friction_alerts', 'project_id', new.project_id,
                                                   'id', new.alert_id)::text);
  return null;
end $$;
create trigger friction_alerts_published after insert on friction_alerts
  for each row execute function pi_on_friction_alert();

create function pi_on_job_completion() returns trigger language plpgsql as $$
begin
  perform pi_enqueue_subscribed(new.project_id, 'job.completed', new.user_id,
    jsonb_build_object('job_id', new.job_id, 'user_id', new.user_id, 'completed_at', pi_utc(new.completed_at)));
  perform pg_notify('pi_stream', json_build_object('table', 'job_completions', 'project_id', new.project_id,
                                                   'id', new.completion_id)::text);
  return null;
end $$;
create trigger job_completions_published after insert on job_completions
  for each row execute function pi_on_job_completion();

create function pi_on_friction_episode() returns trigger language plpgsql as $$
begin
  perform pi_enqueue_subscribed(new.project_id, 'user.friction_detected', new.user_id,
    jsonb_build_object('user_id', new.user_id, 'page', new.page, 'element', new.element, 'signal', new.signal,
                       'friction_index', new.friction_index, 'session_id', new.session_id,
                       'detected_at', pi_utc(new.detected_at)));
  return null;
end $$;
create trigger friction_episodes_published after insert on friction_episodes
  for each row execute function pi_on_friction_episode();

-- Member lists in a delivery are capped (payloads stay small); the counts are always whole.
create function pi_on_cohort_change() returns trigger language plpgsql as $$
begin
  perform pi_enqueue_subscribed(new.project_id, 'cohort.changed', null,
    jsonb_build_object('cohort_id', new.cohort_id,
                       'name', (select c.name from cohorts c where c.project_id = new.project_id and c.cohort_id = new.cohort_id),
                       'added', to_jsonb(new.added[1:1000]), 'removed', to_jsonb(new.removed[1:1000]),
                       'added_count', cardinality(new.added), 'removed_count', cardinality(new.removed),
                       'size', new.size, 'changed_at', pi_utc(new.changed_at)));
  return null;
end $$;
create trigger cohort_changes_published after insert on cohort_changes
  for each row execute function pi_on_cohort_change();

-- Tracked chat and walkthrough events go to the project's integration endpoint, in the
-- raw-sink's transaction (a replay inserts nothing new, so it sends nothing again).
create function pi_on_integration_event() returns trigger language plpgsql as $$
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
  insert into webhook_deliveries (project_id, delivery_id, target, event, user_id, payload)
  values (new.project_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'integration', kind, new.user_id,
          jsonb_build_object('event', kind, 'timestamp', pi_utc(new.occurred_at), 'properties', props, 'user_id', new.user_id));
  return null;
end $$;
create trigger raw_events_integration after insert on raw_events
  for each row when (new.event in ('chat_created', 'chat_updated', 'walkthrough_step_completed'))
  execute function pi_on_integration_event();

-- Wakes the senders: on a new delivery and on one made due again (redelivery).
create function pi_on_delivery_due() returns trigger language plpgsql as $$
begin
  perform pg_notify('pi_webhooks', json_build_object('project_id', new.project_id, 'id', new.delivery_id)::text);
  return null;
end $$;
create trigger webhook_deliveries_due after insert or update of status, next_attempt_at on webhook_deliveries
  for each row when (new.status = 'pending') execute function pi_on_delivery_due();
