-- A writer's share of the answer tables is read from the first day its change moves
-- (store/answer-tables.ts): the edge of the first day read needs the user's previous day with a
-- row for the same feature, page or element, one probe each through these indexes instead of a
-- read of the user's whole history.
create index feature_user_daily_user_feature on feature_user_daily (project_id, user_id, feature, day);
create index friction_page_users_user_page on friction_page_users (project_id, user_id, page, day);
create index friction_element_users_user_element on friction_element_users (project_id, user_id, page, element, day);
