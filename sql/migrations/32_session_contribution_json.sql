-- A session's contribution is written on every change to the session and read back whole (by the
-- analytics sink, to take it away again); SQL reads into it only to refresh a user's feature
-- firsts. As jsonb, Postgres built its binary form on every write and its text on every read: 800
-- changed sessions cost ~108 ms to insert and ~38 ms to read back, against ~43 ms and ~20 ms as json
-- (measured before this migration; the figures are in its commit).
alter table sessions alter column contribution type json using contribution::json;
