import { SCOPES } from '../../store/api-keys.js';
import { AUDIT_ACTIONS } from '../../store/audit-log.js';
import { JOB_STATES } from '../../domain/jobs/states.js';
import {
  type Schema,
  array,
  date,
  freeObject,
  int,
  literal,
  nullable,
  num,
  obj,
  enumOf,
  pageMembers,
  paged,
  ref,
  str,
  strings,
  timestamp,
} from './shapes.js';

const orNull = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const jobMetrics = { completion_rate: num, users_targeted: int, users_completed: int };
const jobFields = { id: str, name: str, status: enumOf(...JOB_STATES), priority: nullable(str), created_at: timestamp };
const user = { user_id: str, properties: freeObject, created_at: timestamp, updated_at: timestamp };
const apiKey = {
  id: str,
  name: str,
  scopes: array(enumOf(...SCOPES)),
  created_at: timestamp,
  created_by: orNull(
    obj(
      { type: enumOf('member', 'api_key'), id: str, email: nullable(str) },
      {},
      "who made the key: a console member (email null once they left) or an API key; null for an operator's key:create",
    ),
  ),
  last_used_at: nullable(timestamp),
  revoked_at: nullable(timestamp),
  allowed_origins: { ...nullable({ type: 'array' }), items: str, description: 'browser keys: the origins allowed' },
};
const webhook = {
  id: str,
  url: str,
  events: strings,
  status: { ...enumOf('active', 'paused'), description: 'paused: no new deliveries; queued ones are held' },
  created_at: timestamp,
  updated_at: timestamp,
};
const integration = { url: str, events: strings, created_at: timestamp, updated_at: timestamp };
const delivery = {
  id: str,
  target: enumOf('subscription', 'integration'),
  webhook_id: nullable(str),
  event: str,
  status: enumOf('pending', 'succeeded', 'failed'),
  attempts: int,
  next_attempt_at: nullable(timestamp),
  last_status: nullable(int),
  last_error: nullable(str),
  created_at: timestamp,
  finished_at: nullable(timestamp),
};
const report = {
  id: str,
  name: str,
  type: str,
  schedule: str,
  format: str,
  recipients: strings,
  next_run_at: timestamp,
  created_at: timestamp,
};
const period = obj({ start: date, end: date });

/** Administration: events, users, jobs, cohorts, webhooks, keys, reports, exports, settings. */
export const ADMIN_SCHEMAS = {
  Accepted: obj({ accepted: int, message_ids: array(str, 'one per event, in order') }),
  User: obj(user),
  IdentifiedUser: {
    oneOf: [ref('User'), obj({ user_id: str }, {}, 'what a browser key (allowed_origins) gets back')],
  },
  UserDeleted: obj({ user_id: str, deleted: literal(true), rows_deleted: int }),
  JobCreated: obj({ id: str, name: str, status: enumOf(...JOB_STATES), created_at: timestamp }),
  JobListItem: obj({ ...jobFields, metrics: obj(jobMetrics) }),
  JobList: paged('jobs', ref('JobListItem')),
  Job: obj({
    ...jobFields,
    description: nullable(str),
    goal: nullable(str),
    target_audience: orNull(ref('job-create.target_audience')),
    automation: orNull(ref('job-create.automation')),
    metrics: obj({ ...jobMetrics, avg_time_to_completion: num }),
    updated_at: timestamp,
  }),
  CustomCohort: obj({
    id: str,
    name: str,
    type: literal('custom'),
    criteria: ref('cohort-create/properties/criteria'),
    size: int,
    created_at: timestamp,
  }),
  Cohort: { oneOf: [ref('CustomCohort'), ref('BehaviouralCohort')] },
  CohortList: paged('cohorts', ref('Cohort')),
  CustomCohortUsers: obj({
    cohort_id: str,
    type: literal('custom'),
    users: array(
      obj({
        user_id: str,
        events: int,
        days_active: int,
        sessions: int,
        features_used: int,
        friction_index: num,
        last_seen_at: nullable(timestamp),
      }),
    ),
    ...pageMembers(),
  }),
  CohortUsers: { oneOf: [ref('CustomCohortUsers'), ref('BehaviouralCohortUsers')] },
  Webhook: obj(webhook),
  WebhookCreated: obj({ ...webhook, secret: { ...str, description: 'whsec_…, shown once (Standard Webhooks)' } }),
  WebhookList: paged('webhooks', ref('Webhook')),
  WebhookTest: obj({ delivery_id: str, webhook_id: str, event: literal('test'), status: literal('pending') }),
  Delivery: obj(delivery),
  DeliveryList: paged('deliveries', ref('Delivery')),
  DeliveryDetail: obj({
    ...delivery,
    payload: { description: 'the JSON body delivered' },
    attempt_log: array(
      obj({
        attempt: int,
        url: str,
        started_at: timestamp,
        duration_ms: nullable(int),
        status: nullable(int),
        error: nullable(str),
        retry_in_ms: nullable(int),
      }),
    ),
  }),
  Integration: obj(integration, {
    secret: { ...str, description: 'only when issued: first connection or rotate_secret' },
  }),
  IntegrationTest: obj({ delivery_id: str, event: literal('test'), status: literal('pending') }),
  ApiKey: obj(apiKey),
  ApiKeyCreated: obj({ ...apiKey, key: { ...str, description: 'the key itself, shown once' } }),
  ApiKeyList: paged('api_keys', ref('ApiKey')),
  ApiKeyRevoked: obj({ id: str, revoked: literal(true), revoked_at: timestamp }),
  AuditEntry: obj({
    id: str,
    at: timestamp,
    actor: obj({ type: enumOf('member', 'api_key'), id: str, email: nullable(str) }),
    action: enumOf(...AUDIT_ACTIONS),
    target: obj({ type: str, id: nullable(str) }),
    details: freeObject,
    address: nullable(str),
  }),
  AuditLog: paged('entries', ref('AuditEntry')),
  Report: obj(report),
  ReportList: paged('reports', ref('Report')),
  ReportDetail: obj({
    ...report,
    runs: array(
      obj({
        id: str,
        trigger: str,
        status: str,
        period,
        attempts: int,
        recipients: strings,
        sent_at: nullable(timestamp),
        error: nullable(str),
        created_at: timestamp,
      }),
      'newest first',
    ),
  }),
  ReportRunQueued: obj({ run_id: str, report_id: str, status: literal('queued'), period }),
  WarehouseExport: obj({
    id: str,
    destination: str,
    tables: strings,
    status: enumOf('queued', 'running', 'succeeded', 'failed'),
    row_counts: { type: 'object', additionalProperties: int, description: 'rows written per table' },
    error: nullable(str),
    created_at: timestamp,
    started_at: nullable(timestamp),
    finished_at: nullable(timestamp),
  }),
  ExportedEvent: obj(
    {
      message_id: str,
      user_id: str,
      event: str,
      occurred_at: timestamp,
      received_at: timestamp,
      properties: freeObject,
    },
    {},
    'one row of GET /analytics/export/events (a CSV row holds properties as JSON text)',
  ),
  ExportedEvents: array(ref('ExportedEvent')),
  AnalyticsSettings: obj({ overrides: ref('analytics-settings'), effective: ref('analytics-settings') }),
  RetentionSettings: obj({ overrides: ref('retention-settings'), effective: ref('retention-settings') }),
} satisfies Record<string, Schema>;
