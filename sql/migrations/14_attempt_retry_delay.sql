-- The delay chosen after a failed attempt (null when none followed): the retry schedule is then
-- visible in the delivery log, not only inferred from when requests arrived.
alter table webhook_attempts add column retry_in_ms integer;
