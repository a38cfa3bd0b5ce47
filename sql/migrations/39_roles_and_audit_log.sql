-- Roles that mean something (docs/adr/0083-console-roles-and-audit-log.md).
--
-- A console member is an owner, admin, member or viewer; api/console/roles.ts says what each may do.
-- Members invited before keep the role `member`, which no longer acts as admin: owners promote whom
-- they trust.
alter table console_users drop constraint console_users_role_check;
alter table console_users
  add constraint console_users_role_check check (role in ('owner', 'admin', 'member', 'viewer'));

-- Who made each key: a console member, or another key (an admin key minting keys); neither for a key
-- an operator made with `npm run key:create`, or made before this migration. Removing a member (or
-- taking admin from them) revokes the keys they made and, along `created_by_key`, the keys those made.
-- No foreign key: the creator stays named after the member is gone.
alter table api_keys
  add column created_by_member text,
  add column created_by_key text,
  add constraint api_keys_one_creator check (created_by_member is null or created_by_key is null);
create index api_keys_created_by_member on api_keys (project_id, created_by_member) where created_by_member is not null;
create index api_keys_created_by_key on api_keys (project_id, created_by_key) where created_by_key is not null;

-- A console stream token names the session that asked for it: the stream it opens lasts as long as
-- that session does (signing out, a new password or the member's removal close it).
alter table console_tokens add column session_hash bytea;

-- Who did what, when, from where: every administrative change of a project (store/audit-log.ts).
-- The actor is a console member (id and the e-mail of the moment) or an API key; `address` is the
-- client address as api/client-address.ts gives it. No end-user's id is kept here: an erasure's entry
-- names none, so the log never has to be erased itself. Kept as long as the project.
create table audit_log (
  project_id uuid not null references projects (project_id) on delete cascade,
  entry_id bigserial,
  at timestamptz not null default now(),
  actor_type text not null check (actor_type in ('member', 'api_key')),
  actor_id text not null,
  actor_email text,
  action text not null check (length(action) between 1 and 100),
  target_type text,
  target_id text,
  details jsonb not null default '{}',
  address text,
  primary key (project_id, entry_id)
);
create index audit_log_recent on audit_log (project_id, at desc, entry_id desc);
