-- Scheduled reports: schedules and runs (issue 7).
-- A report is a standing schedule until it is deleted; the `queued` placeholder status goes.
alter table reports drop column status;
alter table reports
  add constraint reports_type_check check (type in ('feature_intelligence', 'friction', 'workflows')),
  add constraint reports_schedule_check check (schedule in ('daily', 'weekly', 'monthly')),
  add constraint reports_format_check check (format in ('pdf', 'csv', 'html'));
create index reports_project_created on reports (project_id, created_at desc, report_id);
-- The scheduler's tick reads every report of one schedule, across projects, once per period.
create index reports_schedule on reports (schedule, created_at);

-- One row per sending of a report: by the schedule (one per period at most) or asked for by hand.
create table report_runs (
  project_id uuid not null,
  report_id text not null,
  run_id text not null,
  trigger text not null check (trigger in ('schedule', 'manual')),
  -- Inclusive UTC days the report covers.
  period_start date not null,
  period_end date not null,
  status text not null default 'queued' check (status in ('queued', 'running', 'retrying', 'sent', 'failed')),
  attempts integer not null default 0,
  -- Addressed to the report's recipients as they were when the run was queued.
  recipients text[] not null,
  error text,
  message_id text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (project_id, run_id),
  foreign key (project_id, report_id) references reports (project_id, report_id) on delete cascade
);
-- A repeated or late tick of the scheduler never sends a period twice.
create unique index report_runs_one_per_period on report_runs (project_id, report_id, period_end)
  where trigger = 'schedule';
create index report_runs_report_created on report_runs (project_id, report_id, created_at desc);
