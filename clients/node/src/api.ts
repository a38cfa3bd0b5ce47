/**
 * Generated from the service's OpenAPI document by openapi-typescript (npm run build:node-client).
 * Do not edit: a test fails when this file differs from a fresh generation.
 */

export interface paths {
    "/analytics/cohorts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Behavioural cohorts: users clustered by behaviour, largest first */
        get: operations["getAnalyticsCohorts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/cohorts/{cohort_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One cohort of either type: its profile, what sets it apart, its top features and size over time */
        get: operations["getAnalyticsCohortsCohort_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/cohorts/{cohort_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cohort's members: a behavioural cohort's with their clustered values, a custom cohort's with their metrics */
        get: operations["getAnalyticsCohortsCohort_idUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/context/events/{event_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Outcomes of a named event split by UI context (data present versus empty state) */
        get: operations["getAnalyticsContextEventsEvent_name"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/export/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Raw events of a date range as a CSV, JSON or NDJSON file (streamed) */
        get: operations["getAnalyticsExportEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/export/warehouse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue an export of tables to a warehouse */
        post: operations["postAnalyticsExportWarehouse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/export/warehouse/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status of a warehouse export */
        get: operations["getAnalyticsExportWarehouseExport_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/features": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Features seen versus used: VR, EC, DGS and quadrant per feature */
        get: operations["getAnalyticsFeatures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/features/{feature_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One feature: metrics, usage by user tenure, how users discovered it, usage by segment and by day */
        get: operations["getAnalyticsFeaturesFeature_name"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/friction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Friction points by page (element null) and element, highest Friction Index first; points of index 0 only with include_zero=true */
        get: operations["getAnalyticsFriction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/friction/trends": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Daily Friction Index over the date range, with trend and alert level: per workflow (default when the project has workflows) or per page */
        get: operations["getAnalyticsFrictionTrends"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How a job performs: completion, time, interventions, paths to success, drop-off points */
        get: operations["getAnalyticsJobsJob_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List scheduled reports, newest first */
        get: operations["getAnalyticsReports"];
        put?: never;
        /** Schedule a report, mailed daily (06:00 UTC), weekly (Monday) or monthly (1st) */
        post: operations["postAnalyticsReports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/reports/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A scheduled report with its next run time and its last 10 runs */
        get: operations["getAnalyticsReportsReport_id"];
        put?: never;
        post?: never;
        /** Unschedule a report (its run history goes with it) */
        delete: operations["deleteAnalyticsReportsReport_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/reports/{report_id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a report now (covering its usual period); the run shows in GET /analytics/reports/{id} */
        post: operations["postAnalyticsReportsReport_idRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Paths that led users to a goal, most frequent first; a goal not kept yet is registered and mined by the workflows worker (202 until it is) */
        get: operations["getAnalyticsWorkflows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/workflows/{workflow_id}/efficiency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Optimal versus actual steps of a workflow, and the friction met at each step */
        get: operations["getAnalyticsWorkflowsWorkflow_idEfficiency"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's API keys (never the keys themselves), with who made each */
        get: operations["getApiKeys"];
        put?: never;
        /** Create an API key; the key is in this response only. Records who made it (the console member or the key): removing that member revokes it */
        post: operations["postApiKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key (answered once no API process accepts it any more; the key's open streams close within seconds) */
        delete: operations["deleteApiKeysKey_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every administrative change of the project, newest first: who (console member or API key), what, when and from which client address */
        get: operations["getAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cohorts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List every cohort, behavioural and custom, newest first, with its current size */
        get: operations["getCohorts"];
        put?: never;
        /** Define a custom cohort over user behaviour metrics */
        post: operations["postCohorts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cohorts/{cohort_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One cohort of either type with its current size */
        get: operations["getCohortsCohort_id"];
        put?: never;
        post?: never;
        /** Delete a custom cohort; its members leave it (one last cohort.changed) */
        delete: operations["deleteCohortsCohort_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cohorts/{cohort_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cohort's members: a behavioural cohort's with their clustered values, a custom cohort's with their metrics */
        get: operations["getCohortsCohort_idUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's console members */
        get: operations["getConsoleMembers"];
        put?: never;
        /** Invite a person (owners only): they get a one-time sign-in link, valid for 24 h */
        post: operations["postConsoleMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/members/{member_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a console member (owners only; not the last owner): their sessions and streams end, and the API keys they made (and the keys those made) are revoked */
        delete: operations["deleteConsoleMembersMember_id"];
        options?: never;
        head?: never;
        /** Change a member's role (owners only; a project keeps an owner). Taking admin from them revokes the API keys they made */
        patch: operations["patchConsoleMembersMember_id"];
        trace?: never;
    };
    "/console/members/{member_id}/sign-in-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new one-time sign-in link for a member (owners only), e.g. for a forgotten password */
        post: operations["postConsoleMembersMember_idSignInLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the signed-in user's password (the current one is needed unless the session came from a sign-in link); ends their other sessions */
        put: operations["putConsolePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in console user, their project and the CSRF token for changes */
        get: operations["getConsoleSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in to the admin console with email and password; sets the session cookie */
        post: operations["postConsoleSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/sign-in/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a one-time link (the token after #token=); it can be used once, within 24 h */
        post: operations["postConsoleSignInLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End this console session */
        post: operations["postConsoleSignOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/sign-out-everywhere": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End every session of the signed-in user, on every device */
        post: operations["postConsoleSignOutEverywhere"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/stream-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A one-use token, valid for a minute, for the stream auth message ({"type":"auth","api_key":token}) */
        post: operations["postConsoleStreamToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record one event */
        post: operations["postEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record up to 1,000 events, all or nothing */
        post: operations["postEventsBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** ok, or degraded when Postgres, Kafka or the schema registry failed the last probe (no key needed) */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/details": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The operator's view (Bearer PI_OPERATOR_TOKEN, not an API key): each dependency's last probe (status, latency, error), and the answering process's event-loop delay and requests' waits on Postgres and Kafka since the previous such call */
        get: operations["getHealthDetails"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List jobs, newest first */
        get: operations["getJobs"];
        put?: never;
        /** Create a job (status draft) */
        post: operations["postJobs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a job */
        get: operations["getJobsJob_id"];
        put?: never;
        post?: never;
        /** Delete a job */
        delete: operations["deleteJobsJob_id"];
        options?: never;
        head?: never;
        /** Update any subset of a job; status moves along the job state machine */
        patch: operations["patchJobsJob_id"];
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document (no key needed) */
        get: operations["getOpenapi.json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's analytics overrides and the thresholds and weights in force */
        get: operations["getSettingsAnalytics"];
        /** Replace the project's analytics overrides (applies to events processed from now on) */
        put: operations["putSettingsAnalytics"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/goals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's declared goal events */
        get: operations["getSettingsGoals"];
        /** Replace the project's declared goal events (their workflows are mined within a poll interval) */
        put: operations["putSettingsGoals"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/integrations/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The outbound integration endpoint (without its secret) */
        get: operations["getSettingsIntegrationsWebhook"];
        /** Connect (or change) the outbound integration endpoint; the signing secret is shown when issued */
        put: operations["putSettingsIntegrationsWebhook"];
        post?: never;
        /** Disconnect the outbound integration endpoint (pending deliveries to it are given up) */
        delete: operations["deleteSettingsIntegrationsWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/integrations/webhook/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a signed test delivery (event "test") to the connected integration endpoint */
        post: operations["postSettingsIntegrationsWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/name-caps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** New event, feature, page and element names a project may bring in per day, and the events folded into "(other)" beyond them */
        get: operations["getSettingsNameCaps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/rate-limit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's rate tier, its requests per hour and the current window's use (set by operators) */
        get: operations["getSettingsRateLimit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How long the project keeps raw events, deliveries, report runs, alerts and export files */
        get: operations["getSettingsRetention"];
        /** Replace the project's retention overrides (the retention worker applies them within the hour) */
        put: operations["putSettingsRetention"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user's properties */
        get: operations["getUsersUser_id"];
        put?: never;
        post?: never;
        /** Erase every row of a person (privacy request): the user and every anonymous id linked to them (or, given a linked anonymous id, its user's person), and the keys that seal their Kafka messages; their past events never come back */
        delete: operations["deleteUsersUser_id"];
        options?: never;
        head?: never;
        /** Merge properties into a known user's */
        patch: operations["patchUsersUser_id"];
        trace?: never;
    };
    "/users/identify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a user or merge properties into it */
        post: operations["postUsersIdentify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook subscriptions (without secrets) */
        get: operations["getWebhooks"];
        put?: never;
        /** Subscribe an HTTPS endpoint to service events; the signing secret is shown once */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook subscription (without its secret), as listed */
        get: operations["getWebhooksWebhook_id"];
        put?: never;
        post?: never;
        /** Remove a webhook subscription */
        delete: operations["deleteWebhooksWebhook_id"];
        options?: never;
        head?: never;
        /** Change the URL or events of a subscription, or pause (status paused: no new deliveries, queued ones held) and resume it */
        patch: operations["patchWebhooksWebhook_id"];
        trace?: never;
    };
    "/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a signed test delivery (event "test") to a subscription, sent even while it is paused; it is logged like every delivery */
        post: operations["postWebhooksWebhook_idTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery log: every delivery of subscriptions and of the integration endpoint, newest first */
        get: operations["getWebhooksDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with its payload and every attempt (time, status, error) */
        get: operations["getWebhooksDeliveriesDelivery_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again, with the same webhook-id and a fresh round of retries */
        post: operations["postWebhooksDeliveriesDelivery_idRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Accepted: {
            accepted: number;
            /** @description one per event, in order */
            message_ids: string[];
        };
        /**
         * Analytics settings of a project
         * @description Overrides of the analytics thresholds and weights (docs/metrics.md); anything left out keeps its default. They apply to events processed from now on; scripts/replay applies them to the past.
         */
        "analytics-settings": {
            alerts?: {
                frictionIndex?: number;
                /** @description only events received at most this long ago raise alerts */
                maxReceiptAgeMs?: number;
                minUsersAffected?: number;
            };
            backtrack?: {
                maxMs?: number;
            };
            contextSuccessWindowMs?: number;
            dead?: {
                responseWindowMs?: number;
            };
            idle?: {
                capMs?: number;
                minGapMs?: number;
            };
            loop?: {
                minAlternatingViews?: number;
            };
            quadrant?: {
                engagementConversion?: number;
                visibilityRate?: number;
            };
            rage?: {
                maxDistancePx?: number;
                maxIntervalMs?: number;
                minClicks?: number;
                selectionTypes?: string[];
            };
            segments?: {
                /** @description user properties pre-aggregated as segments; a change rebuilds the segment tables in the request */
                properties?: string[];
            };
            session?: {
                /** @description a gap this long starts a new session */
                gapMs?: number;
                /** @description longest session */
                maxMs?: number;
            };
            weights?: {
                backtrack?: number;
                dead_click?: number;
                idle?: number;
                loop?: number;
                rage_click?: number;
            };
            workflows?: {
                /** @description goals asked for by GET /analytics/workflows?goal= kept at once; more answer 409 */
                maxRequestedGoals?: number;
                /** @description a requested goal nobody asked for this many days is forgotten */
                requestedGoalTtlDays?: number;
            };
        };
        AnalyticsSettings: {
            effective: components["schemas"]["analytics-settings"];
            overrides: components["schemas"]["analytics-settings"];
        };
        /** API key */
        "api-key-create": {
            /** @description Browser key: origins (https://app.example.com) whose pages may use it; then scopes must be ["events:write"]. */
            allowed_origins?: string[] | null;
            name?: string;
            scopes: ("events:write" | "analytics:read" | "admin")[];
        };
        ApiKey: {
            /** @description browser keys: the origins allowed */
            allowed_origins: string[] | null;
            /** Format: date-time */
            created_at: string;
            created_by: {
                email: string | null;
                id: string;
                /** @enum {unknown} */
                type: "member" | "api_key";
            } | null;
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            name: string;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("events:write" | "analytics:read" | "admin")[];
        };
        ApiKeyCreated: {
            /** @description browser keys: the origins allowed */
            allowed_origins: string[] | null;
            /** Format: date-time */
            created_at: string;
            created_by: {
                email: string | null;
                id: string;
                /** @enum {unknown} */
                type: "member" | "api_key";
            } | null;
            id: string;
            /** @description the key itself, shown once */
            key: string;
            /** Format: date-time */
            last_used_at: string | null;
            name: string;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("events:write" | "analytics:read" | "admin")[];
        };
        ApiKeyList: {
            api_keys: components["schemas"]["ApiKey"][];
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
        };
        ApiKeyRevoked: {
            id: string;
            /** @constant */
            revoked: true;
            /** Format: date-time */
            revoked_at: string;
        };
        AuditEntry: {
            /** @enum {unknown} */
            action: "api_key.created" | "api_key.revoked" | "member.invited" | "member.role_changed" | "member.removed" | "member.sign_in_link_issued" | "webhook.created" | "webhook.changed" | "webhook.deleted" | "integration.connected" | "integration.changed" | "integration.disconnected" | "report.created" | "report.deleted" | "export.warehouse_queued" | "export.events_requested" | "settings.changed" | "user.erased";
            actor: {
                email: string | null;
                id: string;
                /** @enum {unknown} */
                type: "member" | "api_key";
            };
            address: string | null;
            /** Format: date-time */
            at: string;
            /** @description free key/value pairs */
            details: Record<string, unknown>;
            id: string;
            target: {
                id: string | null;
                type: string;
            };
        };
        AuditLog: {
            entries: components["schemas"]["AuditEntry"][];
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
        };
        BehaviouralCohort: {
            characteristics: {
                [key: string]: number;
            };
            churn_risk: string;
            /** Format: date-time */
            created_at: string;
            expansion_opportunity: string;
            id: string;
            name: string;
            percentage: number;
            size: number;
            /** @constant */
            type: "behavioral";
        };
        BehaviouralCohortDetail: {
            /** @description with date_range: members (as of now) with a session in the range */
            active_members?: number;
            characteristics: {
                [key: string]: number;
            };
            churn_risk: string;
            /** Format: date-time */
            created_at: string;
            /** @description present when date_range was given */
            date_range?: components["schemas"]["DateRange"];
            /** @description how the clustering that found the cohort was run */
            definition: {
                /** Format: date-time */
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
                /** Format: date */
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
            /** @constant */
            type: "behavioral";
        };
        BehaviouralCohortList: {
            cohorts: components["schemas"]["BehaviouralCohort"][];
            /** Format: date-time */
            computed_at: string | null;
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
            users_clustered: number;
            users_excluded: number;
        };
        BehaviouralCohortUsers: {
            cohort_id: string;
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
            /** @constant */
            type: "behavioral";
            users: ({
                user_id: string;
            } & {
                [key: string]: number;
            })[];
        };
        Cohort: components["schemas"]["CustomCohort"] | components["schemas"]["BehaviouralCohort"];
        /** Custom cohort */
        "cohort-create": {
            /** @description Maps a user metric (features_used, days_active, sessions, events, friction_index, avg_session_length, last_seen_days) to operators (gte, gt, lte, lt, eq, ne: number; between: [low, high]); all conditions must hold. */
            criteria: {
                [key: string]: Record<string, unknown>;
            };
            name: string;
        };
        CohortDetail: components["schemas"]["BehaviouralCohortDetail"] | components["schemas"]["CustomCohortDetail"];
        CohortList: {
            cohorts: components["schemas"]["Cohort"][];
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
        };
        CohortUsers: components["schemas"]["CustomCohortUsers"] | components["schemas"]["BehaviouralCohortUsers"];
        /** Console sign-in with a one-time link's token */
        "console-link-sign-in": {
            /** @description The token after #token= in the link. */
            token: string;
        };
        /** Invite a person to the project's console */
        "console-member-invite": {
            /** Format: email */
            email: string;
            /**
             * @default member
             * @enum {unknown}
             */
            role: "owner" | "admin" | "member" | "viewer";
        };
        /** Change a console member's role */
        "console-member-role": {
            /** @enum {unknown} */
            role: "owner" | "admin" | "member" | "viewer";
        };
        /** Set the signed-in console user's password */
        "console-password": {
            /** @description Required unless the session was opened by a sign-in link or no password is set yet. */
            current_password?: string;
            /** @description 12 to 256 characters. */
            password: string;
        };
        /** Console sign-in with email and password */
        "console-sign-in": {
            /** Format: email */
            email: string;
            password: string;
        };
        ConsoleInvitation: {
            /** Format: date-time */
            expires_at: string;
            member: components["schemas"]["ConsoleMember"];
            sign_in_link: string;
        };
        ConsoleMember: {
            /** Format: date-time */
            created_at: string;
            /** Format: email */
            email: string;
            has_password: boolean;
            id: string;
            /** @enum {unknown} */
            role: "owner" | "admin" | "member" | "viewer";
        };
        ConsoleMembers: {
            members: components["schemas"]["ConsoleMember"][];
        };
        ConsolePasswordSet: {
            other_sessions_ended: number;
            /** @constant */
            password_set: true;
        };
        ConsoleSession: {
            csrf_token: string;
            /** Format: date-time */
            expires_at: string;
            project: {
                id: string;
                name: string;
            };
            user: {
                email: string;
                has_password: boolean;
                id: string;
                /** @enum {unknown} */
                role: "owner" | "admin" | "member" | "viewer";
            };
            via_link: boolean;
        };
        ConsoleSignedOut: {
            sessions_ended: number;
            /** @constant */
            signed_out: true;
        };
        ConsoleSignInLink: {
            /** Format: date-time */
            expires_at: string;
            sign_in_link: string;
        };
        ConsoleStreamToken: {
            /** Format: date-time */
            expires_at: string;
            token: string;
        };
        CustomCohort: {
            /** Format: date-time */
            created_at: string;
            criteria: components["schemas"]["cohort-create"]["criteria"];
            id: string;
            name: string;
            size: number;
            /** @constant */
            type: "custom";
        };
        /** @description a custom cohort graded by the clustering's rules (null while it has no members) */
        CustomCohortDetail: {
            /** @description with date_range: members (as of now) with a session in the range */
            active_members?: number;
            characteristics: {
                [key: string]: number;
            } | null;
            churn_risk: string | null;
            /** Format: date-time */
            created_at: string;
            criteria: components["schemas"]["cohort-create"]["criteria"];
            /** @description present when date_range was given */
            date_range?: components["schemas"]["DateRange"];
            expansion_opportunity: string | null;
            id: string;
            name: string;
            percentage: number;
            size: number;
            size_over_time: {
                /** Format: date */
                date: string;
                size: number;
            }[];
            top_features: {
                feature: string;
                share: number;
                users: number;
            }[];
            /** @constant */
            type: "custom";
        };
        CustomCohortUsers: {
            cohort_id: string;
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
            /** @constant */
            type: "custom";
            users: {
                days_active: number;
                events: number;
                features_used: number;
                friction_index: number;
                /** Format: date-time */
                last_seen_at: string | null;
                sessions: number;
                user_id: string;
            }[];
        };
        /** @description the days the answer covers, UTC */
        DateRange: {
            /** Format: date */
            end: string;
            /** Format: date */
            start: string;
        };
        Deleted: {
            /** @constant */
            deleted: true;
            id: string;
        };
        Delivery: {
            attempts: number;
            /** Format: date-time */
            created_at: string;
            event: string;
            /** Format: date-time */
            finished_at: string | null;
            id: string;
            last_error: string | null;
            last_status: number | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** @enum {unknown} */
            status: "pending" | "succeeded" | "failed";
            /** @enum {unknown} */
            target: "subscription" | "integration";
            webhook_id: string | null;
        };
        DeliveryDetail: {
            attempt_log: {
                attempt: number;
                duration_ms: number | null;
                error: string | null;
                retry_in_ms: number | null;
                /** Format: date-time */
                started_at: string;
                status: number | null;
                url: string;
            }[];
            attempts: number;
            /** Format: date-time */
            created_at: string;
            event: string;
            /** Format: date-time */
            finished_at: string | null;
            id: string;
            last_error: string | null;
            last_status: number | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** @description the JSON body delivered */
            payload: unknown;
            /** @enum {unknown} */
            status: "pending" | "succeeded" | "failed";
            /** @enum {unknown} */
            target: "subscription" | "integration";
            webhook_id: string | null;
        };
        DeliveryList: {
            deliveries: components["schemas"]["Delivery"][];
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
        };
        Disconnected: {
            /** @constant */
            deleted: true;
        };
        Error: {
            error: {
                code: string;
                /** @description field and reason for a field problem; more by error */
                details: Record<string, unknown>;
                message: string;
            };
        };
        /**
         * Event batch
         * @description Up to 1,000 tracked events ingested all-or-nothing.
         */
        "event-batch": {
            events: components["schemas"]["tracked-event"][];
        };
        /**
         * Event properties
         * @description Free key/value pairs. The keys below are the vocabulary the analytics understand (docs/events.md); when present they must have these types. Any other key is free and may hold any JSON value, within the caps of free_value.
         */
        "event-properties": {
            /** @description Stable element identifier, e.g. #save-button or a data attribute. */
            element?: string;
            /** @description button, link, input, text, …; text-like types are never rage clicks. */
            element_type?: string;
            /** @description Feature name for feature_impression and feature_used. */
            feature?: string;
            /** @enum {unknown} */
            interaction?: "click" | "hover" | "scroll" | "view" | "navigate" | "submit";
            /** @description Page or route the event happened on, e.g. /settings/profile. */
            page?: string;
            /** @description How the user reached a feature: recommendation, hint, documentation, search, shortcut, … */
            source?: string;
            /** @description Outcome of the occurrence when the client knows it. */
            success?: boolean;
            /** @description What the user saw when the event happened. */
            ui_context?: {
                data_present?: boolean;
                data_volume?: number;
                disabled?: boolean;
                empty_state?: boolean;
            } & {
                [key: string]: components["schemas"]["event-properties.free_value"];
            };
            /** @description false when the client saw no DOM change, navigation or scroll after a click. */
            ui_response?: boolean;
            /** @description Milliseconds until the UI reacted (or the client's wait when it did not). */
            ui_response_ms?: number;
            /** @description Click position in CSS pixels. */
            x?: number;
            y?: number;
        } & {
            [key: string]: components["schemas"]["event-properties.free_value"];
        };
        /** @description Any JSON value whose strings have at most 8,192 characters and whose object keys at most 255, at any depth (docs/adr/0003-property-size-caps.md). */
        "event-properties.free_value": unknown & unknown & unknown;
        EventContext: {
            context_breakdown: {
                empty_state: {
                    common_issues: string[];
                    /** @description CSR: success_rate × the context quality factor */
                    contextual_success_rate: number;
                    count: number;
                    friction_index: number;
                    success_rate: number;
                };
                with_data_present: {
                    /** @description CSR: success_rate × the context quality factor */
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
        };
        /** @description one row of GET /analytics/export/events (a CSV row holds properties as JSON text) */
        ExportedEvent: {
            event: string;
            message_id: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description free key/value pairs */
            properties: Record<string, unknown>;
            /** Format: date-time */
            received_at: string;
            user_id: string;
        };
        ExportedEvents: components["schemas"]["ExportedEvent"][];
        FeatureDetail: {
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
            /** @description every UTC day of date_range, oldest first (days without activity hold zeros) */
            usage_over_time: {
                /** Format: date */
                date: string;
                impressions: number;
                /** @description distinct users with an impression or a use that day */
                users_saw: number;
                /** @description distinct users with a use that day */
                users_used: number;
                uses: number;
            }[];
            usage_patterns: {
                avg_days_to_discovery: number;
                first_week_vr: number;
                month_2_plus_vr: number;
            };
        };
        FeatureList: {
            date_range: components["schemas"]["DateRange"];
            features: components["schemas"]["FeatureUsage"][];
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description the project's effective quadrant thresholds: a feature is high on a rate at or above its threshold */
            quadrant_thresholds: {
                engagement_conversion: number;
                visibility_rate: number;
            };
            /** @description items matching, on every page */
            total: number;
        };
        FeatureUsage: {
            avg_days_to_discovery: number;
            /** @description with include_context=true */
            context?: {
                avg_data_volume_when_used: number;
                visible_in_empty_state: number;
            };
            discovery_gap_score: number;
            engagement_conversion: number;
            name: string;
            /** @enum {unknown} */
            quadrant: "high_visibility_high_usage" | "high_visibility_low_usage" | "low_visibility_high_usage" | "low_visibility_low_usage";
            users_saw: number;
            users_used: number;
            visibility_rate: number;
        };
        FrictionList: {
            date_range: components["schemas"]["DateRange"];
            friction_points: components["schemas"]["FrictionPoint"][];
            /** @description the next page_number, null on the last page */
            next: number | null;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
        };
        FrictionPoint: {
            /** @description null for the page as a whole */
            element: string | null;
            friction_index: number;
            page: string;
            recommended_actions: string[];
            signals: {
                avg_idle_time: number;
                confusion_loops: number;
                dead_clicks: number;
                rage_clicks: number;
            };
            users_affected: number;
        };
        FrictionTrend: {
            /** @enum {unknown} */
            alert_level: "none" | "info" | "warning" | "critical";
            friction_history: {
                /** Format: date */
                date: string;
                friction_index: number;
            }[];
            goal?: string;
            page?: string;
            percent_change: number;
            /** @enum {unknown} */
            trend: "increasing" | "decreasing" | "stable";
            workflow: string;
            workflow_id?: string;
        };
        FrictionTrends: {
            date_range: components["schemas"]["DateRange"];
            /** @description the next page_number, null on the last page */
            next: number | null;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
            trends: components["schemas"]["FrictionTrend"][];
        };
        /**
         * Declared goal events of a project
         * @description Event names whose paths are kept materialized (GET /analytics/workflows), next to active Job goals and goals asked for.
         */
        "goal-settings": {
            goals: string[];
        };
        Goals: {
            goals: string[];
        };
        Health: {
            /** @enum {unknown} */
            status: "ok" | "degraded";
        };
        HealthDetails: {
            /** Format: date-time */
            checked_at: string;
            checks: {
                kafka: {
                    error?: string;
                    latency_ms: number;
                    /** @enum {unknown} */
                    status: "ok" | "down";
                };
                postgres: {
                    error?: string;
                    latency_ms: number;
                    /** @enum {unknown} */
                    status: "ok" | "down";
                };
                registry: {
                    error?: string;
                    latency_ms: number;
                    /** @enum {unknown} */
                    status: "ok" | "down";
                };
            };
            event_loop: {
                max_ms: number;
                p50_ms: number;
                p99_ms: number;
                /** Format: date-time */
                since: string;
            };
            /** @enum {unknown} */
            status: "ok" | "degraded";
            waits: {
                auth: {
                    count: number;
                    max_ms: number;
                    p50_ms: number;
                    p99_ms: number;
                };
                kafka: {
                    count: number;
                    max_ms: number;
                    p50_ms: number;
                    p99_ms: number;
                };
                rate_limit: {
                    count: number;
                    max_ms: number;
                    p50_ms: number;
                    p99_ms: number;
                };
                user_keys: {
                    count: number;
                    max_ms: number;
                    p50_ms: number;
                    p99_ms: number;
                };
            };
        };
        IdentifiedUser: components["schemas"]["User"] | {
            user_id: string;
        };
        Integration: {
            /** Format: date-time */
            created_at: string;
            events: string[];
            /** @description only when issued: first connection or rotate_secret */
            secret?: string;
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        /** Outbound integration webhook (Settings → Integrations → Webhooks → Connect) */
        "integration-webhook": {
            /**
             * @default [
             *       "chats",
             *       "walkthrough-progress"
             *     ]
             */
            events: ("chats" | "walkthrough-progress")[];
            /** @description Issue a new signing secret (shown once in the response). */
            rotate_secret?: boolean;
            /**
             * Format: uri
             * @description Public HTTPS endpoint that receives chats and walkthrough-progress events.
             */
            url: string;
        };
        IntegrationTest: {
            delivery_id: string;
            /** @constant */
            event: "test";
            /** @constant */
            status: "pending";
        };
        Job: {
            automation: components["schemas"]["job-create.automation"] | null;
            /** Format: date-time */
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
            /** @enum {unknown} */
            status: "draft" | "active" | "paused" | "completed" | "archived";
            target_audience: components["schemas"]["job-create.target_audience"] | null;
            /** Format: date-time */
            updated_at: string;
        };
        /** Job (create) */
        "job-create": {
            automation?: components["schemas"]["job-create.automation"];
            description?: string;
            /** @description Event name whose occurrence completes the job. */
            goal?: string;
            name: string;
            /** @enum {unknown} */
            priority?: "low" | "medium" | "high" | "critical";
            target_audience?: components["schemas"]["job-create.target_audience"];
        };
        "job-create.automation": {
            /** @enum {unknown} */
            level?: "manual" | "subtle_hints" | "guided_shortcuts" | "automated";
            requires_confirmation?: boolean;
        };
        "job-create.target_audience": {
            /** @description Boolean expression over user properties, e.g. plan == 'pro' && mrr >= 100; required when type is segment. */
            criteria?: string;
            /**
             * @description all users, or those whose properties satisfy criteria
             * @enum {unknown}
             */
            type: "all" | "segment";
        };
        /**
         * Job (update: any subset of fields; a job as read may be sent back)
         * @description Fields left out keep their value; null clears description, goal, target_audience and automation. The read-only fields of a job as GET /jobs/{id} answers it (id, created_at, updated_at, metrics) are accepted and ignored, so that a client may change what it read and send it back; id must then name this job. A job becomes active only with a goal.
         */
        "job-update": {
            automation?: components["schemas"]["job-create.automation"] | null;
            /** @description read-only, ignored */
            created_at?: string;
            description?: string | null;
            goal?: string | null;
            /** @description read-only: must be this job's id */
            id?: string;
            /** @description read-only, ignored */
            metrics?: Record<string, unknown>;
            name?: string;
            /** @enum {unknown} */
            priority?: "low" | "medium" | "high" | "critical";
            /** @enum {unknown} */
            status?: "draft" | "active" | "paused" | "completed" | "archived";
            target_audience?: components["schemas"]["job-create.target_audience"] | null;
            /** @description read-only, ignored */
            updated_at?: string;
        };
        JobAnalytics: {
            /** @description present when date_range was given */
            date_range?: components["schemas"]["DateRange"];
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
        };
        JobCreated: {
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @enum {unknown} */
            status: "draft" | "active" | "paused" | "completed" | "archived";
        };
        JobList: {
            jobs: components["schemas"]["JobListItem"][];
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
        };
        JobListItem: {
            /** Format: date-time */
            created_at: string;
            id: string;
            metrics: {
                completion_rate: number;
                users_completed: number;
                users_targeted: number;
            };
            name: string;
            priority: string | null;
            /** @enum {unknown} */
            status: "draft" | "active" | "paused" | "completed" | "archived";
        };
        NameCaps: {
            caps: {
                element: number;
                event: number;
                feature: number;
                page: number;
            };
            /** @description today first, then the week before */
            days: {
                date: string;
                element: {
                    folded_events: number;
                    new_names: number;
                };
                event: {
                    folded_events: number;
                    new_names: number;
                };
                feature: {
                    folded_events: number;
                    new_names: number;
                };
                page: {
                    folded_events: number;
                    new_names: number;
                };
            }[];
            /** @description names used in this many days before are never folded */
            established_days: number;
            folded_into: string;
        };
        OpenApiDocument: {
            components: Record<string, unknown>;
            info: Record<string, unknown>;
            openapi: string;
            paths: Record<string, unknown>;
        };
        RateLimitSettings: {
            limit_per_hour: number;
            /** @enum {unknown} */
            tier: "standard" | "pro" | "enterprise";
            window: {
                /** @description X-RateLimit-Remaining */
                remaining: number;
                /** @description end of the window, Unix epoch seconds (X-RateLimit-Reset) */
                reset: number;
                /**
                 * Format: date-time
                 * @description start of the current clock-hour window
                 */
                start: string;
                /** @description requests counted in the window, this one included */
                used: number;
            };
        };
        Report: {
            /** Format: date-time */
            created_at: string;
            format: string;
            id: string;
            name: string;
            /** Format: date-time */
            next_run_at: string;
            recipients: string[];
            schedule: string;
            type: string;
        };
        /** Scheduled report */
        "report-create": {
            /**
             * @default pdf
             * @enum {unknown}
             */
            format: "pdf" | "csv" | "html";
            name: string;
            recipients: string[];
            /** @enum {unknown} */
            schedule: "daily" | "weekly" | "monthly";
            /** @enum {unknown} */
            type: "feature_intelligence" | "friction" | "workflows";
        };
        ReportDetail: {
            /** Format: date-time */
            created_at: string;
            format: string;
            id: string;
            name: string;
            /** Format: date-time */
            next_run_at: string;
            recipients: string[];
            /** @description newest first */
            runs: {
                attempts: number;
                /** Format: date-time */
                created_at: string;
                error: string | null;
                id: string;
                period: {
                    /** Format: date */
                    end: string;
                    /** Format: date */
                    start: string;
                };
                recipients: string[];
                /** Format: date-time */
                sent_at: string | null;
                status: string;
                trigger: string;
            }[];
            schedule: string;
            type: string;
        };
        ReportList: {
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            reports: components["schemas"]["Report"][];
            /** @description items matching, on every page */
            total: number;
        };
        ReportRunQueued: {
            period: {
                /** Format: date */
                end: string;
                /** Format: date */
                start: string;
            };
            report_id: string;
            run_id: string;
            /** @constant */
            status: "queued";
        };
        /**
         * Retention settings of a project
         * @description Whole days each kind of aging data is kept (docs/api.md, Retention); anything left out keeps its default.
         */
        "retention-settings": {
            /** @description friction alerts (default 365) */
            alertsDays?: number;
            /** @description DuckDB and Parquet export files on the service's disk, by when they were written (default 30) */
            exportFilesDays?: number;
            /** @description raw events, by when they happened (default 36500: kept) */
            rawEventsDays?: number;
            /** @description finished report runs (default 365) */
            reportRunsDays?: number;
            /** @description finished webhook deliveries and their attempts (default 30) */
            webhookDeliveriesDays?: number;
        };
        RetentionSettings: {
            effective: components["schemas"]["retention-settings"];
            overrides: components["schemas"]["retention-settings"];
        };
        /**
         * Tracked event
         * @description One behavioural event: who did what, when, with free properties.
         */
        "tracked-event": {
            event: string;
            /** @description Client-chosen id; an event with the id of one already stored in the project is a duplicate and is ignored. */
            message_id?: string;
            properties?: components["schemas"]["event-properties"];
            /**
             * Format: date-time
             * @description ISO 8601 with a time zone; absent means the time the service received the event.
             */
            timestamp?: string;
            user_id: string;
        };
        User: {
            /** Format: date-time */
            created_at: string;
            /** @description free key/value pairs */
            properties: Record<string, unknown>;
            /** Format: date-time */
            updated_at: string;
            user_id: string;
        };
        /**
         * Identify a user
         * @description Creates the user or merges the properties into the known ones; a property set to null is removed. With `anonymous_id` (or its other name `previous_id`), the id the user's events were sent under before they signed in is linked to the user: from then on the person counts once in every analytics answer and those events are theirs (docs/metrics.md, "One person").
         */
        "user-identify": {
            /** @description The anonymous id the user's events were sent under before sign-in (the tracker's and the clients' `anonymous_id`). */
            anonymous_id?: string;
            /** @description The same as `anonymous_id` (Segment's name); send one of the two. */
            previous_id?: string;
            properties?: components["schemas"]["user-update"];
            user_id: string;
        };
        /** Update a user's properties */
        "user-update": {
            /** @description Free key/value pairs merged into the user's properties; null removes a key. */
            properties: Record<string, unknown>;
        };
        UserDeleted: {
            /** @constant */
            deleted: true;
            rows_deleted: number;
            user_id: string;
        };
        /** Warehouse export request */
        "warehouse-export": {
            credentials: {
                /** @description Account or host[:port] of the warehouse. */
                account?: string;
                /** @description Postgres database; DuckDB file or Parquet folder (a relative path inside the server's export folder). */
                database: string;
                /** @description Stored sealed (PI_SECRET_KEYS) and wiped when the export ends. */
                password?: string;
                schema?: string;
                /**
                 * @description Postgres only: verify (the default) connects over TLS and checks the server's certificate and name; disable connects in plain text.
                 * @enum {unknown}
                 */
                tls?: "verify" | "disable";
                user?: string;
            };
            destination: string;
            tables: ("events" | "users" | "features" | "workflows")[];
        };
        WarehouseExport: {
            /** Format: date-time */
            created_at: string;
            destination: string;
            error: string | null;
            /** Format: date-time */
            finished_at: string | null;
            id: string;
            /** @description rows written per table */
            row_counts: {
                [key: string]: number;
            };
            /** Format: date-time */
            started_at: string | null;
            /** @enum {unknown} */
            status: "queued" | "running" | "succeeded" | "failed";
            tables: string[];
        };
        Webhook: {
            /** Format: date-time */
            created_at: string;
            events: string[];
            id: string;
            /**
             * @description paused: no new deliveries; queued ones are held
             * @enum {unknown}
             */
            status: "active" | "paused";
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        /** Webhook subscription */
        "webhook-create": {
            events: components["schemas"]["webhook-create.events"];
            url: components["schemas"]["webhook-create.url"];
        };
        "webhook-create.events": ("job.completed" | "user.friction_detected" | "cohort.changed")[];
        /**
         * Format: uri
         * @description HTTPS address that receives the deliveries.
         */
        "webhook-create.url": string;
        /**
         * Webhook subscription (update: any subset of fields; a subscription as read may be sent back)
         * @description Fields left out keep their value. status paused stops new deliveries (events meanwhile are not queued for it) and holds the ones already queued until it is active again. A new url is checked as at creation. The read-only fields of a subscription as GET /webhooks/{id} answers it (id, created_at, updated_at) are accepted and ignored, so that a client may change what it read and send it back; id must then name this subscription.
         */
        "webhook-update": {
            /** @description read-only, ignored */
            created_at?: string;
            events?: components["schemas"]["webhook-create.events"];
            /** @description read-only: must be this subscription's id */
            id?: string;
            /**
             * @description paused: no new deliveries; queued ones are held
             * @enum {unknown}
             */
            status?: "active" | "paused";
            /** @description read-only, ignored */
            updated_at?: string;
            url?: components["schemas"]["webhook-create.url"];
        };
        WebhookCreated: {
            /** Format: date-time */
            created_at: string;
            events: string[];
            id: string;
            /** @description whsec_…, shown once (Standard Webhooks) */
            secret: string;
            /**
             * @description paused: no new deliveries; queued ones are held
             * @enum {unknown}
             */
            status: "active" | "paused";
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        WebhookList: {
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /** @description items matching, on every page */
            total: number;
            webhooks: components["schemas"]["Webhook"][];
        };
        WebhookTest: {
            delivery_id: string;
            /** @constant */
            event: "test";
            /** @constant */
            status: "pending";
            webhook_id: string;
        };
        Workflow: {
            /** @description seconds */
            avg_time: number;
            completion_rate: number;
            efficiency_score: number;
            frequency: number;
            goal: string;
            occurrences: number;
            path: string[];
            user_share: number;
            users: number;
            workflow_id: string;
        };
        WorkflowEfficiency: {
            actual_avg_steps: number;
            /** @description present when date_range was given */
            date_range?: components["schemas"]["DateRange"];
            efficiency_score: number;
            friction_points: {
                common_issues: string[];
                friction_index: number;
                step: string;
            }[];
            goal: string;
            /** @description with date_range: completions along the path in the range */
            occurrences?: number;
            optimal_steps: number;
            workflow_id: string;
        };
        WorkflowList: {
            /** @description present when date_range was given */
            date_range?: components["schemas"]["DateRange"];
            /** @description the next page_number, null on the last page */
            next: number | null;
            /** @description older name of page_number */
            page: number;
            page_number: number;
            per_page: number;
            /**
             * @description with 202: the goal is being mined; ask again after Retry-After
             * @constant
             */
            status?: "computing";
            /** @description items matching, on every page */
            total: number;
            workflows: components["schemas"]["Workflow"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAnalyticsCohorts: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { cohorts, total, page_number, page, per_page, next, computed_at, users_clustered, users_excluded } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BehaviouralCohortList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsCohortsCohort_id: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days, last_90_days or custom; default: all history */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path: {
                cohort_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cohort record with top_features and size_over_time; behavioural: definition and traits, custom: criteria; with date_range: active_members (members with a session in the range) and size_over_time of its days */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CohortDetail"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such cohort in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsCohortsCohort_idUsers: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
            };
            header?: never;
            path: {
                cohort_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { cohort_id, type, users, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CohortUsers"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such cohort in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsContextEventsEvent_name: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days (default), last_90_days or custom */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path: {
                event_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Event context analysis */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventContext"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The event was never recorded in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsExportEvents: {
        parameters: {
            query: {
                /** @description last_7_days, last_30_days, last_90_days (ending today, UTC) or custom */
                date_range: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD with date_range=custom */
                end?: string;
                /** @description comma-separated event names */
                event_types?: string;
                /** @description csv, json or ndjson; may be omitted with Accept: application/x-ndjson */
                format?: "csv" | "json" | "ndjson";
                /** @description YYYY-MM-DD with date_range=custom */
                start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description attachment: message_id, user_id, event, occurred_at, received_at, properties per row */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportedEvents"];
                    "application/x-ndjson": string;
                    "text/csv": string;
                };
            };
            /** @description Invalid parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded, or the project's streamed exports at their share (reason project_exports_running; Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAnalyticsExportWarehouse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["warehouse-export"];
            };
        };
        responses: {
            /** @description { id, destination, tables, status: queued, row_counts, error, created_at, started_at, finished_at } */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WarehouseExport"];
                };
            };
            /** @description Invalid body, unsupported destination or table, DuckDB file or Parquet folder outside the export folder */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsExportWarehouseExport_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, destination, tables, status (queued|running|succeeded|failed), row_counts per table, error, created_at, started_at, finished_at } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WarehouseExport"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such export in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsFeatures: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days (default), last_90_days or custom */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description add UI context (default true) */
                include_context?: boolean;
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
                /** @description a user property filter property:value, e.g. plan:pro */
                segment?: string;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { features, total, page_number, page, per_page, next, date_range, quadrant_thresholds }: by name */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeatureList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsFeaturesFeature_name: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days (default), last_90_days or custom */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description user property that splits segmented_usage (default plan) */
                segment_by?: string;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path: {
                feature_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Feature detail, with usage_over_time: one row per day */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeatureDetail"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The feature was never seen in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsFriction: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days (default), last_90_days or custom */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description also the points whose Friction Index is 0 (default false) */
                include_zero?: boolean;
                /** @description only points at or above this index (0–1) */
                min_friction_index?: number;
                /** @description only this page or route */
                page?: string;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { friction_points, total, page_number, per_page, next, date_range } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FrictionList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsFrictionTrends: {
        parameters: {
            query?: {
                /** @description workflow or page; default: workflow when the project has workflows, else page */
                by?: "workflow" | "page";
                /** @description last_7_days, last_30_days (default), last_90_days or custom */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description only this goal's workflows (implies by=workflow) */
                goal?: string;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 200, its most */
                per_page?: number;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
                /** @description only this workflow (implies by=workflow) */
                workflow_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { trends, total, page_number, per_page, next, date_range }: highest alert level, then steepest rise, first */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FrictionTrends"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsJobsJob_id: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days, last_90_days or custom; default: all history */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { job_id, name, metrics, paths_to_success: [{ path, frequency, avg_time }], drop_off_points, date_range? }: with date_range, of the users who started on the job in its days */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAnalytics"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such job in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsReports: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { reports, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAnalyticsReports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["report-create"];
            };
        };
        responses: {
            /** @description { id, name, type, schedule, format, recipients, next_run_at, created_at } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsReportsReport_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, …, next_run_at, runs: [{ id, trigger, status, period, sent_at, error, … }] } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportDetail"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such report in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAnalyticsReportsReport_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, deleted: true } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such report in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAnalyticsReportsReport_idRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { run_id, report_id, status: queued, period } */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportRunQueued"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such report in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The project started its most manual runs for this hour (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The reports worker has never run here */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsWorkflows: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days, last_90_days or custom; default: all history */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description an event name; default: every goal kept (active Job goals, declared and asked-for goals) */
                goal?: string;
                /** @description only paths that reached the goal at least this many times */
                min_frequency?: number;
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { workflows, total, page_number, page, per_page, next, date_range? }: with date_range, mined from the sessions of its days */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowList"];
                };
            };
            /** @description { workflows: [], total: 0, page_number, page, per_page, next: null, status: "computing" } with Retry-After: a goal asked for the first time is being mined */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The project keeps analytics.workflows.maxRequestedGoals requested goals already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsWorkflowsWorkflow_idEfficiency: {
        parameters: {
            query?: {
                /** @description last_7_days, last_30_days, last_90_days or custom; default: all history */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD, with date_range=custom */
                end?: string;
                /** @description YYYY-MM-DD, with date_range=custom */
                start?: string;
            };
            header?: never;
            path: {
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Workflow efficiency; with date_range, of the completions and page friction of its days */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowEfficiency"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such workflow, or (with date_range) not completed in the range */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKeys: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { api_keys, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["api-key-create"];
            };
        };
        responses: {
            /** @description { id, key, name, scopes, created_at, created_by, revoked_at: null, allowed_origins } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreated"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiKeysKey_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, revoked: true, revoked_at } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRevoked"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such key in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuditLog: {
        parameters: {
            query?: {
                /** @description an action, or a target type for all of its actions: api_key, member, webhook, integration, report, export, settings, user */
                action?: "api_key.created" | "api_key.revoked" | "member.invited" | "member.role_changed" | "member.removed" | "member.sign_in_link_issued" | "webhook.created" | "webhook.changed" | "webhook.deleted" | "integration.connected" | "integration.changed" | "integration.disconnected" | "report.created" | "report.deleted" | "export.warehouse_queued" | "export.events_requested" | "settings.changed" | "user.erased" | "api_key" | "member" | "webhook" | "integration" | "report" | "export" | "settings" | "user";
                /** @description a console member's id or e-mail address, or an API key's id */
                actor?: string;
                /** @description last_7_days, last_30_days, last_90_days (ending today, UTC) or custom; all time when absent */
                date_range?: "last_7_days" | "last_30_days" | "last_90_days" | "custom";
                /** @description YYYY-MM-DD with date_range=custom */
                end?: string;
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
                /** @description YYYY-MM-DD with date_range=custom */
                start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { entries, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditLog"];
                };
            };
            /** @description Invalid parameters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCohorts: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
                /** @description only cohorts of this type */
                type?: "behavioral" | "custom";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { cohorts, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CohortList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCohorts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["cohort-create"];
            };
        };
        responses: {
            /** @description { id, name, type: custom, criteria, size, created_at } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The project keeps the most custom cohorts it may (details.limit) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCohortsCohort_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cohort_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cohort, as in the list */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such cohort in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCohortsCohort_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cohort_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, deleted: true } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such cohort in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A behavioural cohort: computed by clustering, it cannot be deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCohortsCohort_idUsers: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
            };
            header?: never;
            path: {
                cohort_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { cohort_id, type, users, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CohortUsers"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such cohort in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { members: [{ id, email, role, has_password, created_at }] } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleMembers"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConsoleMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["console-member-invite"];
            };
        };
        responses: {
            /** @description { member, sign_in_link, expires_at } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleInvitation"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The address has an account in another project */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteConsoleMembersMember_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, deleted: true } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such member */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner cannot be removed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchConsoleMembersMember_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                member_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["console-member-role"];
            };
        };
        responses: {
            /** @description { id, email, role, has_password, created_at } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleMember"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such member */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last owner cannot give up the role */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConsoleMembersMember_idSignInLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { sign_in_link, expires_at } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSignInLink"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such member */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putConsolePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["console-password"];
            };
        };
        responses: {
            /** @description { password_set: true, other_sessions_ended } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsolePasswordSet"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsoleSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { user, project, csrf_token, via_link, expires_at } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSession"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConsoleSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["console-sign-in"];
            };
        };
        responses: {
            /** @description { user, project, csrf_token, via_link, expires_at } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSession"];
                };
            };
            /** @description Wrong email or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Posted from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConsoleSignInLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["console-link-sign-in"];
            };
        };
        responses: {
            /** @description { user, project, csrf_token, via_link: true, expires_at } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSession"];
                };
            };
            /** @description The link is unknown, used or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many attempts from this address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConsoleSignOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { signed_out: true, sessions_ended } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSignedOut"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConsoleSignOutEverywhere: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { signed_out: true, sessions_ended } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSignedOut"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConsoleStreamToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { token, expires_at } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleStreamToken"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["tracked-event"];
            };
        };
        responses: {
            /** @description { accepted: 1, message_ids } once the event is durably stored */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postEventsBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["event-batch"];
            };
        };
        responses: {
            /** @description { accepted, message_ids } once every event is durably stored */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { status: ok } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description { status: degraded } */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getHealthDetails: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { status, checked_at, checks: { postgres, kafka, registry }, event_loop, waits } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthDetails"];
                };
            };
            /** @description No operator token sent */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not the operator token (project API keys, admin ones included) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service has no operator token (PI_OPERATOR_TOKEN): the details are not served */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJobs: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
                /** @description only jobs in this state */
                status?: "draft" | "active" | "paused" | "completed" | "archived";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { jobs, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postJobs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["job-create"];
            };
        };
        responses: {
            /** @description { id, name, status, created_at } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobCreated"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJobsJob_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the full job */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such job in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteJobsJob_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, deleted: true } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such job in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchJobsJob_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["job-update"];
            };
        };
        responses: {
            /** @description the full job after the update */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description id names another job, or the job would be active without a goal */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such job in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Illegal status move (details.from, details.to, details.allowed) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "getOpenapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsAnalytics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { overrides, effective } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalyticsSettings"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSettingsAnalytics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["analytics-settings"];
            };
        };
        responses: {
            /** @description { overrides, effective } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalyticsSettings"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsGoals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { goals } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goals"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSettingsGoals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["goal-settings"];
            };
        };
        responses: {
            /** @description { goals } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goals"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsIntegrationsWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { url, events, created_at, updated_at } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No endpoint connected */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSettingsIntegrationsWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["integration-webhook"];
            };
        };
        responses: {
            /** @description { url, events, created_at, updated_at, secret? } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description first connected: with the secret */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSettingsIntegrationsWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { deleted: true } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Disconnected"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No endpoint connected */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSettingsIntegrationsWebhookTest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { delivery_id, event: "test", status: "pending" } */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrationTest"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No endpoint connected */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsNameCaps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { caps, established_days, folded_into, days } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NameCaps"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsRateLimit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { tier, limit_per_hour, window } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitSettings"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { overrides, effective } (whole days) */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionSettings"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSettingsRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["retention-settings"];
            };
        };
        responses: {
            /** @description { overrides, effective } (whole days) */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionSettings"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsersUser_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { user_id, properties, created_at, updated_at } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUsersUser_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { user_id, deleted: true, rows_deleted } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDeleted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchUsersUser_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["user-update"];
            };
        };
        responses: {
            /** @description the user after the merge */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The merged properties would exceed a user's limit (details.limit_bytes) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsersIdentify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["user-identify"];
            };
        };
        responses: {
            /** @description the user ({ user_id, properties, created_at, updated_at }) to an admin key; { user_id } only to any other key */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentifiedUser"];
                };
            };
            /** @description the user was created */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentifiedUser"];
                };
            };
            /** @description anonymous_id equals user_id, or differs from previous_id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The merged properties would exceed a user's limit (details.limit_bytes), or the anonymous id cannot be linked to this user (details.reason: linked_to_another_user, identified_user, linked_anonymous_id) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { webhooks, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["webhook-create"];
            };
        };
        responses: {
            /** @description { id, url, events, secret (whsec_…, Standard Webhooks), created_at } */
            201: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksWebhook_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, url, events, status, created_at, updated_at } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such subscription in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhooksWebhook_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, deleted: true } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such subscription in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchWebhooksWebhook_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["webhook-update"];
            };
        };
        responses: {
            /** @description the subscription after the update */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description The URL is refused as at creation (https only, no credentials, no private target), or id names another subscription */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such subscription in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksWebhook_idTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { delivery_id, webhook_id, event: "test", status: "pending" } */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTest"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such subscription in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksDeliveries: {
        parameters: {
            query?: {
                /** @description older name of page_number */
                page?: number;
                /** @description 1-based page number */
                page_number?: number;
                /** @description items per page; default: the whole list up to 1,000, its most */
                per_page?: number;
                /** @description pending, succeeded or failed */
                status?: "pending" | "succeeded" | "failed";
                /** @description subscription or integration */
                target?: "subscription" | "integration";
                /** @description only this subscription */
                webhook_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { deliveries, total, page_number, page, per_page, next } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksDeliveriesDelivery_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { id, …, payload, attempt_log: [{ attempt, url, started_at, duration_ms, status, error }] } */
            200: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDetail"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such delivery in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksDeliveriesDelivery_idRedeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the delivery, pending again */
            202: {
                headers: {
                    /** @description requests per hour */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests per hour */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Invalid request (details.field, details.reason) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such delivery in this project */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The delivery is already pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
