-- A session that grows (the commonest change: a live session's new events) keeps its row, updated
-- in place, where it was deleted and inserted again: no index entry moves (the updated columns are
-- in none), so with room left on its page the update is HOT. The workflows worker learns of it as
-- of an insert or a delete.
create trigger sessions_updated_workflows after update on sessions
  referencing new table as changed_rows for each statement execute function pi_on_sessions_changed();

alter table sessions set (fillfactor = 80);
