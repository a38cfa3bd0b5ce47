import type { components, operations } from './api.js';

/** Every answer's type, by its name in the OpenAPI document (e.g. Schemas['FeatureList']). */
export type Schemas = components['schemas'];
/** The query parameters of an operation (e.g. Query<'getAnalyticsFeatures'>). */
export type Query<K extends keyof operations> = operations[K]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;
/** The JSON body of an operation (e.g. Body<'postJobs'>). */
export type Body<K extends keyof operations> = operations[K] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

const segment = encodeURIComponent;

function queryString(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Typed helpers for the analytics and administration endpoints: each resolves with the parsed
 * answer, typed from the OpenAPI document, or rejects with an ApiError (status, code, message,
 * details) or a NetworkError.
 */
export abstract class ApiCalls {
  /** Sends one request and resolves with the parsed JSON answer. */
  protected abstract call(method: string, path: string, body?: unknown): Promise<unknown>;

  private get<T>(path: string, query?: object): Promise<T> {
    return this.call('GET', `${path}${queryString(query)}`) as Promise<T>;
  }

  private send<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.call(method, path, body) as Promise<T>;
  }

  // Analytics (analytics:read)
  features(query?: Query<'getAnalyticsFeatures'>) {
    return this.get<Schemas['FeatureList']>('/analytics/features', query);
  }
  feature(name: string, query?: Query<'getAnalyticsFeaturesFeature_name'>) {
    return this.get<Schemas['FeatureDetail']>(`/analytics/features/${segment(name)}`, query);
  }
  workflows(query?: Query<'getAnalyticsWorkflows'>) {
    return this.get<Schemas['WorkflowList']>('/analytics/workflows', query);
  }
  workflowEfficiency(workflowId: string) {
    return this.get<Schemas['WorkflowEfficiency']>(`/analytics/workflows/${segment(workflowId)}/efficiency`);
  }
  behaviouralCohorts() {
    return this.get<Schemas['BehaviouralCohortList']>('/analytics/cohorts');
  }
  behaviouralCohort(cohortId: string) {
    return this.get<Schemas['BehaviouralCohortDetail']>(`/analytics/cohorts/${segment(cohortId)}`);
  }
  behaviouralCohortUsers(cohortId: string, query?: Query<'getAnalyticsCohortsCohort_idUsers'>) {
    return this.get<Schemas['BehaviouralCohortUsers']>(`/analytics/cohorts/${segment(cohortId)}/users`, query);
  }
  friction(query?: Query<'getAnalyticsFriction'>) {
    return this.get<Schemas['FrictionList']>('/analytics/friction', query);
  }
  frictionTrends(query?: Query<'getAnalyticsFrictionTrends'>) {
    return this.get<Schemas['FrictionTrends']>('/analytics/friction/trends', query);
  }
  eventContext(event: string, query?: Query<'getAnalyticsContextEventsEvent_name'>) {
    return this.get<Schemas['EventContext']>(`/analytics/context/events/${segment(event)}`, query);
  }
  jobAnalytics(jobId: string) {
    return this.get<Schemas['JobAnalytics']>(`/analytics/jobs/${segment(jobId)}`);
  }
  /** The raw events of a date range, as the JSON export holds them. */
  exportEvents(query: Omit<Query<'getAnalyticsExportEvents'>, 'format'>) {
    return this.get<Schemas['ExportedEvents']>('/analytics/export/events', { ...query, format: 'json' });
  }
  warehouseExport(exportId: string) {
    return this.get<Schemas['WarehouseExport']>(`/analytics/export/warehouse/${segment(exportId)}`);
  }

  // Administration (admin)
  getUser(userId: string) {
    return this.get<Schemas['User']>(`/users/${segment(userId)}`);
  }
  listJobs(query?: Query<'getJobs'>) {
    return this.get<Schemas['JobList']>('/jobs', query);
  }
  getJob(jobId: string) {
    return this.get<Schemas['Job']>(`/jobs/${segment(jobId)}`);
  }
  createJob(job: Body<'postJobs'>) {
    return this.send<Schemas['JobCreated']>('POST', '/jobs', job);
  }
  updateJob(jobId: string, changes: Body<'patchJobsJob_id'>) {
    return this.send<Schemas['Job']>('PATCH', `/jobs/${segment(jobId)}`, changes);
  }
  deleteJob(jobId: string) {
    return this.send<Schemas['Deleted']>('DELETE', `/jobs/${segment(jobId)}`);
  }
  listCohorts(query?: Query<'getCohorts'>) {
    return this.get<Schemas['CohortList']>('/cohorts', query);
  }
  createCohort(cohort: Body<'postCohorts'>) {
    return this.send<Schemas['Cohort']>('POST', '/cohorts', cohort);
  }
  cohortUsers(cohortId: string, query?: Query<'getCohortsCohort_idUsers'>) {
    return this.get<Schemas['CohortUsers']>(`/cohorts/${segment(cohortId)}/users`, query);
  }
  createWebhook(webhook: Body<'postWebhooks'>) {
    return this.send<Schemas['WebhookCreated']>('POST', '/webhooks', webhook);
  }
  listWebhooks(query?: Query<'getWebhooks'>) {
    return this.get<Schemas['WebhookList']>('/webhooks', query);
  }
  getWebhook(webhookId: string) {
    return this.get<Schemas['Webhook']>(`/webhooks/${segment(webhookId)}`);
  }
  /** url, events, or status (`paused`: no new deliveries, queued ones held until `active`). */
  updateWebhook(webhookId: string, changes: Body<'patchWebhooksWebhook_id'>) {
    return this.send<Schemas['Webhook']>('PATCH', `/webhooks/${segment(webhookId)}`, changes);
  }
  /** Queues a signed delivery of event `test`; it shows in listDeliveries. */
  testWebhook(webhookId: string) {
    return this.send<Schemas['WebhookTest']>('POST', `/webhooks/${segment(webhookId)}/test`);
  }
  deleteWebhook(webhookId: string) {
    return this.send<Schemas['Deleted']>('DELETE', `/webhooks/${segment(webhookId)}`);
  }
  listDeliveries(query?: Query<'getWebhooksDeliveries'>) {
    return this.get<Schemas['DeliveryList']>('/webhooks/deliveries', query);
  }
  getDelivery(deliveryId: string) {
    return this.get<Schemas['DeliveryDetail']>(`/webhooks/deliveries/${segment(deliveryId)}`);
  }
  redeliver(deliveryId: string) {
    return this.send<Schemas['Delivery']>('POST', `/webhooks/deliveries/${segment(deliveryId)}/redeliver`);
  }
  createReport(report: Body<'postAnalyticsReports'>) {
    return this.send<Schemas['Report']>('POST', '/analytics/reports', report);
  }
  listReports(query?: Query<'getAnalyticsReports'>) {
    return this.get<Schemas['ReportList']>('/analytics/reports', query);
  }
  getReport(reportId: string) {
    return this.get<Schemas['ReportDetail']>(`/analytics/reports/${segment(reportId)}`);
  }
  runReport(reportId: string) {
    return this.send<Schemas['ReportRunQueued']>('POST', `/analytics/reports/${segment(reportId)}/run`);
  }
  deleteReport(reportId: string) {
    return this.send<Schemas['Deleted']>('DELETE', `/analytics/reports/${segment(reportId)}`);
  }
  exportToWarehouse(request: Body<'postAnalyticsExportWarehouse'>) {
    return this.send<Schemas['WarehouseExport']>('POST', '/analytics/export/warehouse', request);
  }
  listApiKeys(query?: Query<'getApiKeys'>) {
    return this.get<Schemas['ApiKeyList']>('/api-keys', query);
  }
  createApiKey(key: Body<'postApiKeys'>) {
    return this.send<Schemas['ApiKeyCreated']>('POST', '/api-keys', key);
  }
  revokeApiKey(keyId: string) {
    return this.send<Schemas['ApiKeyRevoked']>('DELETE', `/api-keys/${segment(keyId)}`);
  }
  analyticsSettings() {
    return this.get<Schemas['AnalyticsSettings']>('/settings/analytics');
  }
  setAnalyticsSettings(overrides: Body<'putSettingsAnalytics'>) {
    return this.send<Schemas['AnalyticsSettings']>('PUT', '/settings/analytics', overrides);
  }
  goals() {
    return this.get<Schemas['Goals']>('/settings/goals');
  }
  setGoals(goals: string[]) {
    return this.send<Schemas['Goals']>('PUT', '/settings/goals', { goals });
  }
  rateLimit() {
    return this.get<Schemas['RateLimitSettings']>('/settings/rate-limit');
  }
  health() {
    return this.get<Schemas['Health']>('/health');
  }
}
