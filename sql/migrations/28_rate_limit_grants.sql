-- An API process counts its concurrent requests of one project in one statement
-- (api/rate-limit.ts). `last_granted` is how many that statement admitted below its cap, so the
-- process can tell which of them were admitted: RETURNING shows only the row as it is after.
alter table rate_limit_windows add column last_granted integer not null default 0;
