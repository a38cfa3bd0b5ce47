/**
 * Every table of the schema, declared once: who writes it, what kind of rows it keeps, which lock
 * class its writers take (store/README.md, "The lock protocol"), what a user's erasure does with it
 * and what a full `npm run replay` does with it. The sinks' replay lists, erasure's lists, the
 * tests and store/README.md read it instead of repeating it; a unit test holds it equal to
 * sql/schema.sql (every table declared, every `user_id` table erased).
 */

/** The program whose writes a table's rows are. */
export type Owner = 'raw-sink' | 'analytics' | 'sessionize' | 'api' | 'workers' | 'runtime';

/**
 * events: stored events; per-user: one user's rows, written under the user's lock; shared-sum:
 * sums of session contributions over users; answer: sums of users' shares (store/answer-tables.ts);
 * moment: things that happened (alerts, episodes, completions), raised once; change-log: rows the
 * workers read and delete; derived: a worker's or the API's own state; config: settings, keys,
 * accounts.
 */
export type Kind = 'events' | 'per-user' | 'shared-sum' | 'answer' | 'moment' | 'change-log' | 'derived' | 'config';

/**
 * user: the users' advisory locks first; erasure-guard: the erasure guards, shared; key-order:
 * shared rows in table and key order, after the users' locks; project-pass: a worker's pass lock
 * of the project; row: the row's own lock only.
 */
export type LockClass = 'user' | 'erasure-guard' | 'key-order' | 'project-pass' | 'row';

/**
 * delete: the user's rows are deleted and counted in `rows_deleted`; log: deleted, not counted (how
 * many there are depends on the workers' timing), and last (deleting the others logs the user
 * again); subtract: the user's share is taken out of the sums; none: holds no user's rows by
 * `user_id` (what erasure does beyond, as for dead letters and keys, is in store/user-data.ts).
 */
export type Erasure = 'delete' | 'log' | 'subtract' | 'none';

/** rebuilt: emptied by a full replay of its owner and written again from the topic; kept: left as it is. */
export type Replay = 'rebuilt' | 'kept';

export interface TableSpec {
  owner: Owner;
  kind: Kind;
  lock: LockClass;
  erasure: Erasure;
  replay: Replay;
}

const spec = (owner: Owner, kind: Kind, lock: LockClass, erasure: Erasure, replay: Replay = 'kept'): TableSpec => ({
  owner,
  kind,
  lock,
  erasure,
  replay,
});

/** The analytics sink's per-user rows: rebuilt by a replay, deleted by an erasure. */
const perUser = spec('analytics', 'per-user', 'user', 'delete', 'rebuilt');
const sharedSum = spec('analytics', 'shared-sum', 'key-order', 'subtract', 'rebuilt');
const answer = spec('analytics', 'answer', 'key-order', 'subtract', 'rebuilt');
const workerState = spec('workers', 'derived', 'project-pass', 'none');
const config = spec('api', 'config', 'row', 'none');

/** In the order the analytics sink's replay empties them and an erasure deletes from them. */
export const TABLES = {
  raw_events: spec('raw-sink', 'events', 'erasure-guard', 'delete', 'rebuilt'),

  session_events: perUser,
  sessions: perUser,
  friction_signals: perUser,
  friction_page_daily: sharedSum,
  friction_element_daily: sharedSum,
  friction_page_users: perUser,
  friction_element_users: perUser,
  user_daily: perUser,
  user_friction: perUser,
  feature_user_daily: perUser,
  feature_users: perUser,
  event_context_daily: sharedSum,
  user_metrics: perUser,
  feature_daily: sharedSum,
  project_daily: sharedSum,
  feature_reach: answer,
  tenure_sessions: answer,
  feature_discovery: answer,
  friction_page_reach: answer,
  friction_element_reach: answer,
  user_reach: answer,
  segment_daily: answer,
  segment_feature_daily: answer,
  segment_feature_reach: answer,
  analytics_configs: spec('analytics', 'config', 'row', 'none'),
  // Names admitted under the daily caps: kept by a replay, so that it folds the same names.
  name_admissions: spec('analytics', 'config', 'row', 'none'),
  name_folds: spec('analytics', 'derived', 'row', 'none', 'rebuilt'),
  // Moments: a replay does not raise them again.
  friction_alerts: spec('analytics', 'moment', 'key-order', 'none'),
  friction_episodes: spec('analytics', 'moment', 'user', 'delete'),
  job_completions: spec('analytics', 'moment', 'user', 'delete'),
  job_interventions: spec('analytics', 'moment', 'user', 'delete'),

  users: spec('api', 'per-user', 'user', 'delete'),
  user_keys: spec('api', 'config', 'user', 'none'),
  user_key_epoch: spec('sessionize', 'config', 'row', 'none'),
  deleted_users: spec('api', 'config', 'user', 'none'),
  // An erasure of the person deletes every link to them (with each linked id's rows: api/routes/users.ts).
  identity_links: spec('api', 'config', 'user', 'delete'),

  jobs: config,
  job_targets: spec('workers', 'derived', 'project-pass', 'delete'),
  job_user_facts: spec('workers', 'derived', 'project-pass', 'delete'),
  job_user_steps: spec('workers', 'derived', 'project-pass', 'delete'),
  job_analytics: workerState,
  job_sums: workerState,
  job_day_sums: workerState,
  job_step_sums: workerState,
  job_step_day_sums: workerState,
  job_changes: spec('workers', 'change-log', 'row', 'none'),
  job_user_changes: spec('workers', 'change-log', 'row', 'log'),

  cohorts: config,
  cohort_members: spec('workers', 'derived', 'project-pass', 'delete'),
  cohort_evaluations: workerState,
  cohort_changes: spec('workers', 'moment', 'project-pass', 'none'),
  cohort_user_changes: spec('workers', 'change-log', 'row', 'log'),
  behavioural_cohorts: workerState,
  behavioural_cohort_members: spec('workers', 'derived', 'project-pass', 'delete'),
  behavioural_cohort_runs: workerState,
  behavioural_cohort_sizes: workerState,

  workflows: workerState,
  workflow_goals: config,
  workflow_steps: workerState,
  workflow_attempts: spec('workers', 'derived', 'project-pass', 'delete'),
  workflow_paths: workerState,
  workflow_path_days: workerState,
  workflow_path_reach: workerState,
  workflow_first_steps: workerState,
  workflow_first_step_days: workerState,
  workflow_lengths: workerState,
  workflow_length_days: workerState,
  workflow_changes: spec('workers', 'change-log', 'row', 'none'),
  workflow_session_changes: spec('workers', 'change-log', 'row', 'none'),

  webhook_subscriptions: config,
  webhook_deliveries: spec('workers', 'moment', 'row', 'delete'),
  webhook_attempts: spec('workers', 'moment', 'row', 'none'),
  integration_webhooks: config,
  reports: config,
  report_runs: spec('workers', 'moment', 'row', 'none'),
  warehouse_exports: config,
  export_file_purges: spec('workers', 'change-log', 'row', 'none'),

  projects: config,
  api_keys: config,
  rate_limit_windows: spec('api', 'derived', 'row', 'none'),
  console_users: config,
  console_sessions: config,
  console_tokens: config,
  console_sign_in_attempts: spec('api', 'derived', 'row', 'none'),
  // Administrative changes (store/audit-log.ts); it names no end-user, so an erasure has nothing here.
  audit_log: spec('api', 'moment', 'row', 'none'),

  processor_offsets: spec('runtime', 'config', 'row', 'none'),
  dead_letters: spec('runtime', 'events', 'row', 'none'),
  migrations: spec('runtime', 'config', 'row', 'none'),
} as const satisfies Record<string, TableSpec>;

export type TableName = keyof typeof TABLES;

const names = (keep: (t: TableSpec) => boolean): TableName[] =>
  (Object.keys(TABLES) as TableName[]).filter((name) => keep(TABLES[name]));

/** The tables a full replay of `owner` empties and writes again from its topic. */
export const rebuiltBy = (owner: Owner): TableName[] => names((t) => t.owner === owner && t.replay === 'rebuilt');

/** The tables holding a user's rows by `user_id`, counted in an erasure's `rows_deleted`. */
export const USER_DATA_TABLES = names((t) => t.erasure === 'delete');

/** The workers' logs of changed users, emptied by an erasure last and not counted. */
export const USER_CHANGE_LOGS = names((t) => t.erasure === 'log');

/** The answer tables (store/answer-tables.ts). */
export const ANSWER_TABLES = names((t) => t.kind === 'answer');

/** The sums of session contributions over users (store/contributions.ts). */
export const SHARED_SUM_TABLES = names((t) => t.kind === 'shared-sum');
