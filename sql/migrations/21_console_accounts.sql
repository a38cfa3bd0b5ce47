-- The admin console (/console, docs/console.md): the people who sign in, their sessions, one-time
-- tokens and the sign-in attempt counters. A console session acts as an admin key of its project.
--
-- An email address names one account of one project: a sign-in names no project, so the address
-- must find it. Tables that belong to a project lead with project_id like every tenant table; the
-- lookups a request makes before it knows the project (token hash, email) have unique indexes of
-- their own, as api_keys (key_id) does.

create table console_users (
  project_id uuid not null references projects (project_id) on delete cascade,
  member_id text not null,
  -- stored lower-cased; compared as stored
  email text not null check (email = lower(email) and length(email) between 3 and 254),
  -- owners also manage the project's console members; both act as admin on /v1
  role text not null check (role in ('owner', 'member')),
  -- PHC string "$scrypt$ln=…,r=…,p=…$salt$hash" (parameters kept with the hash); null until set
  password_hash text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (project_id, member_id)
);
create unique index console_users_email on console_users (email);

-- A session is the SHA-256 of its cookie value: a copy of this table signs nobody in.
create table console_sessions (
  project_id uuid not null,
  token_hash bytea not null,
  member_id text not null,
  -- opened by a one-time link: may set a password without giving the current one
  via_link boolean not null default false,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (project_id, token_hash),
  foreign key (project_id, member_id) references console_users (project_id, member_id) on delete cascade
);
create unique index console_sessions_token on console_sessions (token_hash);
create index console_sessions_user on console_sessions (project_id, member_id);

-- One-time tokens, stored hashed: sign-in links (hours) and stream tokens (a minute, for the
-- WebSocket's auth message, which cannot carry the cookie's CSRF protection).
create table console_tokens (
  project_id uuid not null,
  token_hash bytea not null,
  member_id text not null,
  purpose text not null check (purpose in ('sign_in', 'stream')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  primary key (project_id, token_hash),
  foreign key (project_id, member_id) references console_users (project_id, member_id) on delete cascade
);
create unique index console_tokens_token on console_tokens (token_hash);
create index console_tokens_user on console_tokens (project_id, member_id);

-- Sign-in attempts per fixed window, per email and per client address ("email:…", "address:…"),
-- shared by every API process. Not tenant data: an attempt may name no existing account.
create table console_sign_in_attempts (
  subject text not null,
  window_start timestamptz not null,
  attempts integer not null check (attempts > 0),
  primary key (subject, window_start)
);
