-- Identity stitching (docs/adr/0078-identity-stitching.md): an anonymous id (a tracker's visitor
-- before sign-in) linked to the user it turned out to be. One anonymous id links to at most one
-- user (the key); a user may have many (one per device or browser).
--
-- `moved` is stamped from `identity_moves` whenever the analytics sink moves rows of the anonymous
-- id into the user's (the merge, a late event of the anonymous id): a sink that holds the user's
-- chain in memory compares it with the stamp it held them at, and reads the user back when it moved.
create sequence identity_moves;

create table identity_links (
  project_id uuid not null references projects (project_id) on delete cascade,
  anonymous_id text not null,
  user_id text not null,
  linked_at timestamptz not null default now(),
  moved bigint not null default 0,
  primary key (project_id, anonymous_id)
);
create index identity_links_user on identity_links (project_id, user_id);
