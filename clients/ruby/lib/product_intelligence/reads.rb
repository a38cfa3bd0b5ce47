# frozen_string_literal: true

require 'json'
require_relative 'transport'

module ProductIntelligence
  # Typed helpers for the analytics and administration endpoints (docs/api.md of the service). Each
  # is a synchronous call that returns the parsed JSON answer -- a Hash with String keys, exactly as
  # the service sends it; the keys are listed on each method -- or raises ApiError / NetworkError.
  # Reads and idempotent writes are retried like events (network errors, 5xx, 429); creating a job,
  # cohort or webhook is sent again only when the service surely did not apply it.
  #
  # +date_range+ is "last_7_days", "last_30_days", "last_90_days", or a Range of Dates for a custom
  # range (both ends included): +date_range: Date.today - 1..Date.today+.
  module Reads
    JOB_FIELDS = %i[name description goal priority status target_audience automation].freeze

    # GET /analytics/features. +segment+ is "property:value" ("plan:pro").
    # @return [Hash] "features" => [{ "name", "visibility_rate", "engagement_conversion",
    #   "discovery_gap_score", "quadrant", "users_saw", "users_used", "avg_days_to_discovery",
    #   "context" => { "visible_in_empty_state", "avg_data_volume_when_used" } }], "date_range" => { "start", "end" }
    def features(date_range: nil, segment: nil, include_context: nil)
      get('/analytics/features', range_query(date_range).merge(segment: segment, include_context: include_context))
    end

    # GET /analytics/features/{name}; 404 when the feature was never seen.
    # @return [Hash] "name", "metrics" => { "visibility_rate", "engagement_conversion", "discovery_gap_score" },
    #   "usage_patterns" => { "first_week_vr", "month_2_plus_vr", "avg_days_to_discovery" },
    #   "discovery_methods" => { "browsing", "power_user_exploration", "recommendation", "documentation" },
    #   "segmented_usage" => [{ "segment", "visibility_rate", "engagement_conversion" }], "date_range"
    def feature(name, date_range: nil, segment_by: nil)
      get(Transport.path_of('analytics', 'features', name), range_query(date_range).merge(segment_by: segment_by))
    end

    # GET /analytics/friction, highest Friction Index first.
    # @return [Hash] "friction_points" => [{ "page", "element", "friction_index",
    #   "signals" => { "dead_clicks", "rage_clicks", "confusion_loops", "avg_idle_time" }, "users_affected",
    #   "recommended_actions" }], "date_range"
    def friction(page: nil, min_friction_index: nil, date_range: nil)
      get('/analytics/friction', range_query(date_range).merge(page: page, min_friction_index: min_friction_index))
    end

    # GET /analytics/friction/trends (the last 28 days); +by+ is "workflow" or "page".
    # @return [Hash] "trends" => [{ "workflow", "friction_history" => [{ "date", "friction_index" }], "trend",
    #   "percent_change", "alert_level", and "page" (by page) or "workflow_id" and "goal" (by workflow) }]
    def friction_trends(by: nil, goal: nil, workflow_id: nil)
      get('/analytics/friction/trends', { by: by, goal: goal, workflow_id: workflow_id })
    end

    # GET /analytics/workflows; a goal asked for the first time is mined during the call.
    # @return [Hash] "workflows" => [{ "workflow_id", "goal", "path", "frequency", "efficiency_score",
    #   "avg_time" (seconds), "completion_rate", "occurrences", "users", "user_share" }]
    def workflows(goal: nil, min_frequency: nil)
      get('/analytics/workflows', { goal: goal, min_frequency: min_frequency })
    end

    # @return [Hash] "workflow_id", "goal", "optimal_steps", "actual_avg_steps", "efficiency_score",
    #   "friction_points" => [{ "step", "friction_index", "common_issues" }]
    def workflow_efficiency(workflow_id)
      get(Transport.path_of('analytics', 'workflows', workflow_id, 'efficiency'))
    end

    # GET /analytics/cohorts: users clustered by behaviour.
    # @return [Hash] "cohorts" => [{ "id", "name", "type" ("behavioral"), "size", "percentage",
    #   "characteristics", "churn_risk", "expansion_opportunity" }], "computed_at", "users_clustered", "users_excluded"
    def behavioural_cohorts
      get('/analytics/cohorts')
    end

    # @return [Hash] a cohort as in #behavioural_cohorts plus "definition", "traits",
    #   "top_features" => [{ "feature", "users", "share" }], "size_over_time" => [{ "date", "size" }]
    def behavioural_cohort(cohort_id)
      get(Transport.path_of('analytics', 'cohorts', cohort_id))
    end

    # @return [Hash] "cohort_id", "users" => [{ "user_id", and the values clustered on }], "total", "page", "per_page"
    def behavioural_cohort_users(cohort_id, page: nil, per_page: nil)
      get(Transport.path_of('analytics', 'cohorts', cohort_id, 'users'), { page: page, per_page: per_page })
    end

    # GET /analytics/context/events/{event_name}; 404 when the event was never recorded.
    # @return [Hash] "event", "total_occurrences", "context_breakdown" => { "with_data_present" => { "count",
    #   "success_rate", "friction_index" }, "empty_state" => { ..., "common_issues" } }, "recommendations", "date_range"
    def event_context(event_name, date_range: nil)
      get(Transport.path_of('analytics', 'context', 'events', event_name), range_query(date_range))
    end

    # @return [Hash] "job_id", "name", "goal", "metrics" => { "completion_rate", "avg_time_to_completion",
    #   "intervention_acceptance_rate", "users_targeted", "users_completed" },
    #   "paths_to_success" => [{ "path", "frequency", "avg_time" }],
    #   "drop_off_points" => [{ "step", "drop_off_rate", "friction_index" }]
    def job_analytics(job_id)
      get(Transport.path_of('analytics', 'jobs', job_id))
    end

    # @return [Hash] "jobs" => [{ "id", "name", "status", "priority", "created_at",
    #   "metrics" => { "completion_rate", "users_targeted", "users_completed" } }], "total", "page", "per_page"
    def list_jobs(status: nil, page: nil, per_page: nil)
      get('/jobs', { status: status, page: page, per_page: per_page })
    end

    # @return [Hash] "id", "name", "description", "goal", "status", "priority",
    #   "target_audience" => { "type", "criteria" }, "automation" => { "level", "requires_confirmation" },
    #   "metrics" => { "completion_rate", "avg_time_to_completion", "users_targeted", "users_completed" },
    #   "created_at", "updated_at"
    def get_job(job_id)
      get(Transport.path_of('jobs', job_id))
    end

    # POST /jobs with +name+ and any of description, goal, priority, target_audience, automation.
    # @return [Hash] "id", "name", "status" ("draft"), "created_at"
    def create_job(name:, **fields)
      write('POST', '/jobs', { name: name }.merge(job_fields(fields)), idempotent: false)
    end

    # PATCH /jobs/{id}; +status:+ moves the job (409 conflict when the move is not allowed).
    # @return [Hash] the job as #get_job
    def update_job(job_id, **fields)
      write('PATCH', Transport.path_of('jobs', job_id), job_fields(fields))
    end

    # @return [Hash] "id", "deleted" => true
    def delete_job(job_id)
      write('DELETE', Transport.path_of('jobs', job_id))
    end

    # POST /cohorts: +criteria+ like { features_used: { gte: 5 } }.
    # @return [Hash] "id", "name", "type" ("custom"), "criteria", "size", "created_at"
    def create_custom_cohort(name:, criteria:)
      write('POST', '/cohorts', { name: name, criteria: criteria }, idempotent: false)
    end

    # GET /cohorts?type=custom (the list holds behavioural cohorts too without the type).
    # @return [Hash] "cohorts" => [custom cohorts as #create_custom_cohort], "total", "page", "per_page"
    def custom_cohorts(page: nil, per_page: nil)
      get('/cohorts', { type: 'custom', page: page, per_page: per_page })
    end

    # DELETE /cohorts/{id}; a behavioural cohort answers 409 conflict (it is computed).
    # @return [Hash] "id", "deleted" => true
    def delete_custom_cohort(cohort_id)
      write('DELETE', Transport.path_of('cohorts', cohort_id))
    end

    # @return [Hash] "cohort_id", "users" => [{ "user_id", "events", "days_active", "sessions",
    #   "features_used", "friction_index", "last_seen_at" }], "total", "page", "per_page"
    def custom_cohort_users(cohort_id, page: nil, per_page: nil)
      get(Transport.path_of('cohorts', cohort_id, 'users'), { page: page, per_page: per_page })
    end

    # POST /webhooks: an https URL and events among job.completed, user.friction_detected, cohort.changed.
    # @return [Hash] "id", "url", "events", "status", "created_at", "updated_at", and "secret" (whsec_...,
    #   shown only in this answer)
    def create_webhook(url:, events:)
      write('POST', '/webhooks', { url: url, events: Array(events) }, idempotent: false)
    end

    # GET /webhooks/{id}: the subscription without its secret.
    # @return [Hash] "id", "url", "events", "status" ("active" or "paused"), "created_at", "updated_at"
    def get_webhook(webhook_id)
      get(Transport.path_of('webhooks', webhook_id))
    end

    # PATCH /webhooks/{id}: any of +url:+ (checked as at creation), +events:+ and +status:+ ("paused": no new
    # deliveries, queued ones held; "active" resumes). Left out, a field keeps its value.
    # @return [Hash] the subscription as #get_webhook
    def update_webhook(webhook_id, url: nil, events: nil, status: nil)
      changes = { url: url, events: events && Array(events), status: status }.compact
      write('PATCH', Transport.path_of('webhooks', webhook_id), changes)
    end

    # POST /webhooks/{id}/test: queues a signed delivery of event "test" (sent even while paused), listed
    # with the other deliveries.
    # @return [Hash] "delivery_id", "webhook_id", "event" ("test"), "status" ("pending")
    def test_webhook(webhook_id)
      write('POST', Transport.path_of('webhooks', webhook_id, 'test'), nil, idempotent: false)
    end

    # @return [Hash] "id", "deleted" => true
    def delete_webhook(webhook_id)
      write('DELETE', Transport.path_of('webhooks', webhook_id))
    end

    # GET /analytics/export/events (format json), oldest first.
    # @return [Array<Hash>] rows: "message_id", "user_id", "event", "occurred_at", "received_at", "properties"
    def export_events(date_range:, event_types: nil)
      get('/analytics/export/events', export_query('json', date_range, event_types))
    end

    # The same rows as CSV text (header row, CRLF line ends, properties as JSON text).
    def export_events_csv(date_range:, event_types: nil)
      @transport.request('GET', '/analytics/export/events', query: export_query('csv', date_range, event_types)).body
    end

    # Streams the rows (NDJSON) to the block without holding the file in memory. One attempt, no
    # retries: a transfer that breaks off raises NetworkError after the rows already yielded.
    def each_exported_event(date_range:, event_types: nil)
      return enum_for(:each_exported_event, date_range: date_range, event_types: event_types) unless block_given?

      query = export_query('ndjson', date_range, event_types)
      @transport.send_once('GET', '/analytics/export/events', query: query,
                                                              accept: 'application/x-ndjson') do |response|
        pending = +''
        response.read_body do |chunk|
          pending << chunk
          while (newline = pending.index("\n"))
            line = pending.slice!(0..newline)
            yield JSON.parse(line) unless line.strip.empty?
          end
        end
        yield JSON.parse(pending) unless pending.strip.empty?
      end
      nil
    end

    private

    def get(path, query = nil)
      @transport.request('GET', path, query: query, max_wait: @transport.timeout).json
    end

    def write(method, path, body = nil, idempotent: true)
      @transport.request(method, path, body: body, idempotent: idempotent, max_wait: @transport.timeout).json
    end

    def range_query(date_range)
      case date_range
      when nil then {}
      when Range
        last = date_range.exclude_end? ? date_range.end - 1 : date_range.end
        { date_range: 'custom', start: date_range.begin, end: last }
      else { date_range: date_range.to_s }
      end
    end

    def export_query(format, date_range, event_types)
      { format: format }.merge(range_query(date_range)).merge(event_types: event_types && Array(event_types))
    end

    def job_fields(fields)
      unknown = fields.keys - JOB_FIELDS
      raise ArgumentError, "unknown job field(s): #{unknown.join(', ')}" unless unknown.empty?

      fields.compact
    end
  end
end
