-- A workflow step's common issues spelt as every answer spells them (`commonIssues`,
-- domain/friction/index.ts): the workflows worker stored 'rage clicks' and 'dead clicks' where the
-- event context answered 'rage_clicks' and 'dead_clicks'.
update workflow_steps
set common_issues = array_replace(array_replace(common_issues, 'rage clicks', 'rage_clicks'), 'dead clicks', 'dead_clicks')
where common_issues && array['rage clicks', 'dead clicks'];
