-- The analytics processor reads a user's feature_users rows (user_metrics.features_used) for
-- every touched user and batch; the primary key leads with the feature, so without this index
-- each lookup scanned all of the project's rows (quadratic in users during a replay).
create index feature_users_user on feature_users (project_id, user_id);
