import type { components, operations } from './api.js';
/** Every answer's type, by its name in the OpenAPI document (e.g. Schemas['FeatureList']). */
export type Schemas = components['schemas'];
/** The query parameters of an operation (e.g. Query<'getAnalyticsFeatures'>). */
export type Query<K extends keyof operations> = operations[K]['parameters'] extends {
    query?: infer Q;
} ? NonNullable<Q> : never;
/** The JSON body of an operation (e.g. Body<'postJobs'>). */
export type Body<K extends keyof operations> = operations[K] extends {
    requestBody: {
        content: {
            'application/json': infer B;
        };
    };
} ? B : never;
/**
 * Typed helpers for the analytics and administration endpoints: each resolves with the parsed
 * answer, typed from the OpenAPI document, or rejects with an ApiError (status, code, message,
 * details) or a NetworkError.
 */
export declare abstract class ApiCalls {
    /** Sends one request and resolves with the parsed JSON answer. */
    protected abstract call(method: string, path: string, body?: unknown): Promise<unknown>;
    private get;
    private send;
    features(query?: Query<'getAnalyticsFeatures'>): Promise<{
        date_range: components["schemas"]["DateRange"];
        features: components["schemas"]["FeatureUsage"][];
        page: number;
        per_page: number;
        total: number;
    }>;
    feature(name: string, query?: Query<'getAnalyticsFeaturesFeature_name'>): Promise<{
        date_range: components["schemas"]["DateRange"];
        discovery_methods: {
            browsing: number;
            documentation: number;
            power_user_exploration: number;
            recommendation: number;
        };
        metrics: {
            discovery_gap_score: number;
            engagement_conversion: number;
            visibility_rate: number;
        };
        name: string;
        segmented_usage: {
            engagement_conversion: number;
            segment: string;
            visibility_rate: number;
        }[];
        usage_patterns: {
            avg_days_to_discovery: number;
            first_week_vr: number;
            month_2_plus_vr: number;
        };
    }>;
    workflows(query?: Query<'getAnalyticsWorkflows'>): Promise<{
        page: number;
        per_page: number;
        status?: "computing";
        total: number;
        workflows: components["schemas"]["Workflow"][];
    }>;
    workflowEfficiency(workflowId: string): Promise<{
        actual_avg_steps: number;
        efficiency_score: number;
        friction_points: {
            common_issues: string[];
            friction_index: number;
            step: string;
        }[];
        goal: string;
        optimal_steps: number;
        workflow_id: string;
    }>;
    behaviouralCohorts(): Promise<{
        cohorts: components["schemas"]["BehaviouralCohort"][];
        computed_at: string | null;
        users_clustered: number;
        users_excluded: number;
    }>;
    behaviouralCohort(cohortId: string): Promise<{
        characteristics: {
            [key: string]: number;
        };
        churn_risk: string;
        created_at: string;
        definition: {
            computed_at: string;
            k: number;
            silhouette: number | null;
            users_clustered: number;
            users_excluded: number;
        };
        expansion_opportunity: string;
        id: string;
        name: string;
        percentage: number;
        size: number;
        size_over_time: {
            date: string;
            size: number;
        }[];
        top_features: {
            feature: string;
            share: number;
            users: number;
        }[];
        traits: {
            [key: string]: number;
        };
        type: "behavioral";
    }>;
    behaviouralCohortUsers(cohortId: string, query?: Query<'getAnalyticsCohortsCohort_idUsers'>): Promise<{
        cohort_id: string;
        page: number;
        per_page: number;
        total: number;
        type: "behavioral";
        users: ({
            user_id: string;
        } & {
            [key: string]: number;
        })[];
    }>;
    friction(query?: Query<'getAnalyticsFriction'>): Promise<{
        date_range: components["schemas"]["DateRange"];
        friction_points: components["schemas"]["FrictionPoint"][];
        page_number: number;
        per_page: number;
        total: number;
    }>;
    frictionTrends(query?: Query<'getAnalyticsFrictionTrends'>): Promise<{
        date_range: components["schemas"]["DateRange"];
        trends: components["schemas"]["FrictionTrend"][];
    }>;
    eventContext(event: string, query?: Query<'getAnalyticsContextEventsEvent_name'>): Promise<{
        context_breakdown: {
            empty_state: {
                common_issues: string[];
                contextual_success_rate: number;
                count: number;
                friction_index: number;
                success_rate: number;
            };
            with_data_present: {
                contextual_success_rate: number;
                count: number;
                friction_index: number;
                success_rate: number;
            };
        };
        date_range: components["schemas"]["DateRange"];
        event: string;
        recommendations: string[];
        total_occurrences: number;
    }>;
    jobAnalytics(jobId: string): Promise<{
        drop_off_points: {
            drop_off_rate: number;
            friction_index: number;
            step: string;
        }[];
        goal: string | null;
        job_id: string;
        metrics: {
            avg_time_to_completion: number;
            completion_rate: number;
            intervention_acceptance_rate: number;
            users_completed: number;
            users_targeted: number;
        };
        name: string;
        paths_to_success: {
            avg_time: number;
            frequency: number;
            path: string[];
        }[];
    }>;
    /** The raw events of a date range, as the JSON export holds them. */
    exportEvents(query: Omit<Query<'getAnalyticsExportEvents'>, 'format'>): Promise<{
        event: string;
        message_id: string;
        occurred_at: string;
        properties: Record<string, unknown>;
        received_at: string;
        user_id: string;
    }[]>;
    warehouseExport(exportId: string): Promise<{
        created_at: string;
        destination: string;
        error: string | null;
        finished_at: string | null;
        id: string;
        row_counts: {
            [key: string]: number;
        };
        started_at: string | null;
        status: "queued" | "running" | "succeeded" | "failed";
        tables: string[];
    }>;
    getUser(userId: string): Promise<{
        created_at: string;
        properties: Record<string, unknown>;
        updated_at: string;
        user_id: string;
    }>;
    listJobs(query?: Query<'getJobs'>): Promise<{
        jobs: components["schemas"]["JobListItem"][];
        page: number;
        per_page: number;
        total: number;
    }>;
    getJob(jobId: string): Promise<{
        automation: components["schemas"]["job-create.automation"] | null;
        created_at: string;
        description: string | null;
        goal: string | null;
        id: string;
        metrics: {
            avg_time_to_completion: number;
            completion_rate: number;
            users_completed: number;
            users_targeted: number;
        };
        name: string;
        priority: string | null;
        status: "draft" | "active" | "paused" | "completed" | "archived";
        target_audience: components["schemas"]["job-create.target_audience"] | null;
        updated_at: string;
    }>;
    createJob(job: Body<'postJobs'>): Promise<{
        created_at: string;
        id: string;
        name: string;
        status: "draft" | "active" | "paused" | "completed" | "archived";
    }>;
    updateJob(jobId: string, changes: Body<'patchJobsJob_id'>): Promise<{
        automation: components["schemas"]["job-create.automation"] | null;
        created_at: string;
        description: string | null;
        goal: string | null;
        id: string;
        metrics: {
            avg_time_to_completion: number;
            completion_rate: number;
            users_completed: number;
            users_targeted: number;
        };
        name: string;
        priority: string | null;
        status: "draft" | "active" | "paused" | "completed" | "archived";
        target_audience: components["schemas"]["job-create.target_audience"] | null;
        updated_at: string;
    }>;
    deleteJob(jobId: string): Promise<{
        deleted: true;
        id: string;
    }>;
    listCohorts(query?: Query<'getCohorts'>): Promise<{
        cohorts: components["schemas"]["Cohort"][];
        page: number;
        per_page: number;
        total: number;
    }>;
    createCohort(cohort: Body<'postCohorts'>): Promise<{
        characteristics: {
            [key: string]: number;
        };
        churn_risk: string;
        created_at: string;
        expansion_opportunity: string;
        id: string;
        name: string;
        percentage: number;
        size: number;
        type: "behavioral";
    } | {
        created_at: string;
        criteria: components["schemas"]["cohort-create"]["criteria"];
        id: string;
        name: string;
        size: number;
        type: "custom";
    }>;
    cohortUsers(cohortId: string, query?: Query<'getCohortsCohort_idUsers'>): Promise<{
        cohort_id: string;
        page: number;
        per_page: number;
        total: number;
        type: "behavioral";
        users: ({
            user_id: string;
        } & {
            [key: string]: number;
        })[];
    } | {
        cohort_id: string;
        page: number;
        per_page: number;
        total: number;
        type: "custom";
        users: {
            days_active: number;
            events: number;
            features_used: number;
            friction_index: number;
            last_seen_at: string | null;
            sessions: number;
            user_id: string;
        }[];
    }>;
    createWebhook(webhook: Body<'postWebhooks'>): Promise<{
        created_at: string;
        events: string[];
        id: string;
        secret: string;
        url: string;
    }>;
    listWebhooks(query?: Query<'getWebhooks'>): Promise<{
        page: number;
        per_page: number;
        total: number;
        webhooks: components["schemas"]["Webhook"][];
    }>;
    deleteWebhook(webhookId: string): Promise<{
        deleted: true;
        id: string;
    }>;
    listDeliveries(query?: Query<'getWebhooksDeliveries'>): Promise<{
        deliveries: components["schemas"]["Delivery"][];
        page: number;
        per_page: number;
        total: number;
    }>;
    getDelivery(deliveryId: string): Promise<{
        attempt_log: {
            attempt: number;
            duration_ms: number | null;
            error: string | null;
            retry_in_ms: number | null;
            started_at: string;
            status: number | null;
            url: string;
        }[];
        attempts: number;
        created_at: string;
        event: string;
        finished_at: string | null;
        id: string;
        last_error: string | null;
        last_status: number | null;
        next_attempt_at: string | null;
        payload: unknown;
        status: "pending" | "succeeded" | "failed";
        target: "subscription" | "integration";
        webhook_id: string | null;
    }>;
    redeliver(deliveryId: string): Promise<{
        attempts: number;
        created_at: string;
        event: string;
        finished_at: string | null;
        id: string;
        last_error: string | null;
        last_status: number | null;
        next_attempt_at: string | null;
        status: "pending" | "succeeded" | "failed";
        target: "subscription" | "integration";
        webhook_id: string | null;
    }>;
    createReport(report: Body<'postAnalyticsReports'>): Promise<{
        created_at: string;
        format: string;
        id: string;
        name: string;
        next_run_at: string;
        recipients: string[];
        schedule: string;
        type: string;
    }>;
    listReports(query?: Query<'getAnalyticsReports'>): Promise<{
        page: number;
        per_page: number;
        reports: components["schemas"]["Report"][];
        total: number;
    }>;
    getReport(reportId: string): Promise<{
        created_at: string;
        format: string;
        id: string;
        name: string;
        next_run_at: string;
        recipients: string[];
        runs: {
            attempts: number;
            created_at: string;
            error: string | null;
            id: string;
            period: {
                end: string;
                start: string;
            };
            recipients: string[];
            sent_at: string | null;
            status: string;
            trigger: string;
        }[];
        schedule: string;
        type: string;
    }>;
    runReport(reportId: string): Promise<{
        period: {
            end: string;
            start: string;
        };
        report_id: string;
        run_id: string;
        status: "queued";
    }>;
    deleteReport(reportId: string): Promise<{
        deleted: true;
        id: string;
    }>;
    exportToWarehouse(request: Body<'postAnalyticsExportWarehouse'>): Promise<{
        created_at: string;
        destination: string;
        error: string | null;
        finished_at: string | null;
        id: string;
        row_counts: {
            [key: string]: number;
        };
        started_at: string | null;
        status: "queued" | "running" | "succeeded" | "failed";
        tables: string[];
    }>;
    listApiKeys(query?: Query<'getApiKeys'>): Promise<{
        api_keys: components["schemas"]["ApiKey"][];
        page: number;
        per_page: number;
        total: number;
    }>;
    createApiKey(key: Body<'postApiKeys'>): Promise<{
        allowed_origins: string[] | null;
        created_at: string;
        id: string;
        key: string;
        last_used_at: string | null;
        name: string;
        revoked_at: string | null;
        scopes: ("events:write" | "analytics:read" | "admin")[];
    }>;
    revokeApiKey(keyId: string): Promise<{
        id: string;
        revoked: true;
        revoked_at: string;
    }>;
    analyticsSettings(): Promise<{
        effective: components["schemas"]["analytics-settings"];
        overrides: components["schemas"]["analytics-settings"];
    }>;
    setAnalyticsSettings(overrides: Body<'putSettingsAnalytics'>): Promise<{
        effective: components["schemas"]["analytics-settings"];
        overrides: components["schemas"]["analytics-settings"];
    }>;
    goals(): Promise<{
        goals: string[];
    }>;
    setGoals(goals: string[]): Promise<{
        goals: string[];
    }>;
    rateLimit(): Promise<{
        limit_per_hour: number;
        tier: "standard" | "pro" | "enterprise";
        window: {
            remaining: number;
            reset: number;
            start: string;
            used: number;
        };
    }>;
    health(): Promise<{
        status: "ok" | "degraded";
    }>;
}
