const segment = encodeURIComponent;
function queryString(query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
        if (value !== undefined && value !== null)
            params.set(name, String(value));
    }
    const text = params.toString();
    return text ? `?${text}` : '';
}
/**
 * Typed helpers for the analytics and administration endpoints: each resolves with the parsed
 * answer, typed from the OpenAPI document, or rejects with an ApiError (status, code, message,
 * details) or a NetworkError.
 */
export class ApiCalls {
    get(path, query) {
        return this.call('GET', `${path}${queryString(query)}`);
    }
    send(method, path, body) {
        return this.call(method, path, body);
    }
    // Analytics (analytics:read)
    features(query) {
        return this.get('/analytics/features', query);
    }
    feature(name, query) {
        return this.get(`/analytics/features/${segment(name)}`, query);
    }
    workflows(query) {
        return this.get('/analytics/workflows', query);
    }
    workflowEfficiency(workflowId) {
        return this.get(`/analytics/workflows/${segment(workflowId)}/efficiency`);
    }
    behaviouralCohorts() {
        return this.get('/analytics/cohorts');
    }
    behaviouralCohort(cohortId) {
        return this.get(`/analytics/cohorts/${segment(cohortId)}`);
    }
    behaviouralCohortUsers(cohortId, query) {
        return this.get(`/analytics/cohorts/${segment(cohortId)}/users`, query);
    }
    friction(query) {
        return this.get('/analytics/friction', query);
    }
    frictionTrends(query) {
        return this.get('/analytics/friction/trends', query);
    }
    eventContext(event, query) {
        return this.get(`/analytics/context/events/${segment(event)}`, query);
    }
    jobAnalytics(jobId) {
        return this.get(`/analytics/jobs/${segment(jobId)}`);
    }
    /** The raw events of a date range, as the JSON export holds them. */
    exportEvents(query) {
        return this.get('/analytics/export/events', { ...query, format: 'json' });
    }
    warehouseExport(exportId) {
        return this.get(`/analytics/export/warehouse/${segment(exportId)}`);
    }
    // Administration (admin)
    getUser(userId) {
        return this.get(`/users/${segment(userId)}`);
    }
    listJobs(query) {
        return this.get('/jobs', query);
    }
    getJob(jobId) {
        return this.get(`/jobs/${segment(jobId)}`);
    }
    createJob(job) {
        return this.send('POST', '/jobs', job);
    }
    updateJob(jobId, changes) {
        return this.send('PATCH', `/jobs/${segment(jobId)}`, changes);
    }
    deleteJob(jobId) {
        return this.send('DELETE', `/jobs/${segment(jobId)}`);
    }
    listCohorts(query) {
        return this.get('/cohorts', query);
    }
    createCohort(cohort) {
        return this.send('POST', '/cohorts', cohort);
    }
    cohortUsers(cohortId, query) {
        return this.get(`/cohorts/${segment(cohortId)}/users`, query);
    }
    createWebhook(webhook) {
        return this.send('POST', '/webhooks', webhook);
    }
    listWebhooks(query) {
        return this.get('/webhooks', query);
    }
    deleteWebhook(webhookId) {
        return this.send('DELETE', `/webhooks/${segment(webhookId)}`);
    }
    listDeliveries(query) {
        return this.get('/webhooks/deliveries', query);
    }
    getDelivery(deliveryId) {
        return this.get(`/webhooks/deliveries/${segment(deliveryId)}`);
    }
    redeliver(deliveryId) {
        return this.send('POST', `/webhooks/deliveries/${segment(deliveryId)}/redeliver`);
    }
    createReport(report) {
        return this.send('POST', '/analytics/reports', report);
    }
    listReports(query) {
        return this.get('/analytics/reports', query);
    }
    getReport(reportId) {
        return this.get(`/analytics/reports/${segment(reportId)}`);
    }
    runReport(reportId) {
        return this.send('POST', `/analytics/reports/${segment(reportId)}/run`);
    }
    deleteReport(reportId) {
        return this.send('DELETE', `/analytics/reports/${segment(reportId)}`);
    }
    exportToWarehouse(request) {
        return this.send('POST', '/analytics/export/warehouse', request);
    }
    listApiKeys(query) {
        return this.get('/api-keys', query);
    }
    createApiKey(key) {
        return this.send('POST', '/api-keys', key);
    }
    revokeApiKey(keyId) {
        return this.send('DELETE', `/api-keys/${segment(keyId)}`);
    }
    analyticsSettings() {
        return this.get('/settings/analytics');
    }
    setAnalyticsSettings(overrides) {
        return this.send('PUT', '/settings/analytics', overrides);
    }
    goals() {
        return this.get('/settings/goals');
    }
    setGoals(goals) {
        return this.send('PUT', '/settings/goals', { goals });
    }
    rateLimit() {
        return this.get('/settings/rate-limit');
    }
    health() {
        return this.get('/health');
    }
}
