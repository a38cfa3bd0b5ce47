-- Processors keep the users' keys they read (store/user-keys.ts). Keys are only ever deleted by an
-- erasure, which bumps this epoch in its transaction: a processor that sees another epoch forgets what
-- it kept, so a key it uses was stored when it read the epoch, as if it had read the key then.
-- `database_id` tells databases apart for a process that works on several (tests).
create table user_key_epoch (
  singleton boolean primary key default true check (singleton),
  database_id uuid not null default gen_random_uuid(),
  epoch bigint not null default 0
);
insert into user_key_epoch default values;
