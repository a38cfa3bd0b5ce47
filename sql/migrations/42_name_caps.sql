-- Caps on the distinct names a project's events bring in per day (docs/adr/0089-name-caps.md,
-- domain/name-caps.ts). `name_admissions`: the names admitted per project, kind and day (a name is
-- recorded on the first day of each week it is used), kept across replays so that a replay folds
-- the same names; `name_folds`: the events whose names were folded, per project, day and kind.
create table name_admissions (
  project_id uuid not null references projects (project_id) on delete cascade,
  kind text not null check (kind in ('event', 'feature', 'page', 'element')),
  name text not null,
  day date not null,
  primary key (project_id, kind, name, day)
);
create index name_admissions_day on name_admissions (project_id, day, kind);

create table name_folds (
  project_id uuid not null references projects (project_id) on delete cascade,
  day date not null,
  kind text not null check (kind in ('event', 'feature', 'page', 'element')),
  events integer not null,
  primary key (project_id, day, kind)
);
