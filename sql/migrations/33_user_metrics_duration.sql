-- The analytics sink keeps user_metrics by the deltas of each batch instead of summing the user's
-- whole user_daily history again on every update (a cost that grew with history, on the live
-- path): the average session length needs the summed duration it is the quotient of.
alter table user_metrics add column duration_ms bigint not null default 0;

update user_metrics m set duration_ms = d.duration_ms
from (select project_id, user_id, sum(duration_ms)::bigint as duration_ms from user_daily group by 1, 2) d
where d.project_id = m.project_id and d.user_id = m.user_id;
