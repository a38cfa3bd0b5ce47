-- Warehouse export jobs: status, row counts, errors (issue 7).

-- status: queued → running → succeeded | failed. A worker claims a queued export with
-- FOR UPDATE SKIP LOCKED and beats heartbeat_at while it works; a running export whose heartbeat
-- stopped (its worker died; the destination rolled back with the lost connection) is claimed again.
alter table warehouse_exports
  add constraint warehouse_exports_status check (status in ('queued', 'running', 'succeeded', 'failed')),
  add column started_at timestamptz,
  add column finished_at timestamptz,
  add column heartbeat_at timestamptz,
  -- rows written per requested table, e.g. {"events": 120, "users": 8}; set when the export succeeds
  add column row_counts jsonb not null default '{}'::jsonb,
  add column error text;

create index warehouse_exports_pending on warehouse_exports (created_at) where status in ('queued', 'running');
