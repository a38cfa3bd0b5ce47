-- Friction alerts raised by the analytics processor.
-- A page whose daily Friction Index crossed the project's alert threshold with enough users
-- affected: at most one alert per page and day (published by the stream and webhooks).
create table friction_alerts (
  project_id uuid not null,
  alert_id text not null,
  page text not null,
  day date not null,
  friction_index double precision not null,
  users_affected integer not null,
  created_at timestamptz not null default now(),
  primary key (project_id, alert_id),
  unique (project_id, page, day)
);
