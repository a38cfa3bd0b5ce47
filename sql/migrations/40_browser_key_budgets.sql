-- Browser keys' budgets (docs/adr/0085-browser-key-budgets.md): besides every request of the
-- project (`all`, as before), the shared hourly counts keep the requests of the project's browser
-- keys (`browser`) and the events they send (`browser_events`), so that the public key of a page
-- has a share of its own and server and admin keys are never starved by it.
alter table rate_limit_windows add column bucket text not null default 'all'
  check (bucket in ('all', 'browser', 'browser_events'));
alter table rate_limit_windows drop constraint rate_limit_windows_pkey;
alter table rate_limit_windows add constraint rate_limit_windows_pkey primary key (project_id, bucket, window_start);
