-- Goals asked for through GET /analytics/workflows?goal= are no longer mined inside the request
-- (a read key could make the API mine a whole project per random goal): the API records the
-- request and wakes the workflows worker, which mines it. `requested_at` is the last time a goal
-- was asked for: the worker forgets requested goals nobody asked for in
-- analytics.workflows.requestedGoalTtlDays, so junk goals are not mined forever.
alter table workflow_goals add column requested_at timestamptz;
update workflow_goals set requested_at = now() where requested;
