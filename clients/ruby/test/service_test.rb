# frozen_string_literal: true

require_relative 'test_helper'
require 'open3'
require 'rbconfig'

# The client against the running service (PI_BASE_URL, PI_API_KEY): real HTTP, real Kafka and
# Postgres behind it. Events are checked where they end up: the raw export.
class TrackTest < Minitest::Test
  include ServiceHelpers

  def setup
    @reader = client
  end

  def test_a_tracked_event_with_a_message_id_is_stored
    tracker = client(flush_interval: 0.1)
    event = unique('stored')
    message_id = unique('m')
    returned = tracker.track(user_id: "#{RUN}-u1", event: event, properties: { page: '/reports', n: 1 },
                             message_id: message_id)
    assert_equal message_id, returned
    assert tracker.flush(timeout: 30)
    assert_equal 1, tracker.delivered_count
    rows = wait_for('the event in the export') { stored_rows(@reader, event, [message_id]) }
    assert_equal 1, rows.size
    assert_equal "#{RUN}-u1", rows[0]['user_id']
    assert_equal({ 'page' => '/reports', 'n' => 1 }, rows[0]['properties'])
    tracker.shutdown
  end

  def test_a_bad_event_goes_to_on_error_with_the_400_and_the_rest_of_its_batch_is_stored
    errors = ServiceHelpers::Errors.new
    tracker = client(flush_interval: 60, on_error: errors.to_proc)
    event = unique('mixed')
    good = (0..2).map { |i| tracker.track(user_id: "#{RUN}-u2", event: event, properties: { i: i }) }
    bad = tracker.track(user_id: "#{RUN}-u2", event: '', properties: { i: 'bad' }) # the service's min_length
    good << tracker.track(user_id: "#{RUN}-u2", event: event, properties: { i: 3 })
    assert tracker.flush(timeout: 30)

    assert_equal 1, errors.calls.size
    error, events = errors.calls[0]
    assert_kind_of ProductIntelligence::ApiError, error
    assert_equal [400, 'invalid_request'], [error.status, error.code]
    assert_equal({ 'field' => 'events[3].event', 'reason' => 'min_length' }, error.details)
    assert_equal([bad], events.map { |e| e['message_id'] })
    assert_equal [4, 1], [tracker.delivered_count, tracker.failed_count]
    rows = wait_for('the 4 good events') { (r = stored_rows(@reader, event, good)).size == 4 && r }
    assert_equal good.sort, rows.map { |r| r['message_id'] }.sort
    tracker.shutdown
  end

  def test_retries_carry_the_same_message_id_honour_retry_after_and_store_the_event_once
    base_url, = service
    proxy = FaultProxy.new(base_url, script: [[503, {}], [429, { 'Retry-After' => '1' }]])
    tracker = client(host: proxy.base_url, flush_interval: 0, retry_base_delay: 0.05, retry_max_delay: 0.2)
    event = unique('retried')
    message_id = unique('m')
    tracker.track(user_id: "#{RUN}-u3", event: event, message_id: message_id)
    assert tracker.flush(timeout: 30)
    tracker.shutdown
    proxy.close
    attempts = proxy.seen.select { |s| s.path == '/v1/events/batch' }

    assert_equal 3, attempts.size, '503, then 429, then forwarded'
    ids = attempts.map { |a| JSON.parse(a.body)['events'].map { |e| e['message_id'] } }
    assert_equal [[message_id]] * 3, ids
    assert_operator attempts[2].at - attempts[1].at, :>=, 1.0, 'Retry-After: 1 waited out'
    assert_equal [1, 0], [tracker.delivered_count, tracker.failed_count]
    wait_for('the retried event') { stored_rows(@reader, event, [message_id]) }
    sleep 1 # anything sent twice would be stored by now; the export must still hold one row
    assert_equal 1, stored_rows(@reader, event, [message_id]).size
  end

  def test_requests_are_cut_at1000_events_and1_mib_and_the_service_takes_each
    base_url, = service
    limit = 1_048_576
    proxy = FaultProxy.new(base_url)
    tracker = client(host: proxy.base_url, batch_size: 1000, flush_interval: 60, max_queue_size: 2000)
    small = unique('small')
    small_ids = (0..1000).map { |i| tracker.track(user_id: "#{RUN}-u6", event: small, properties: { i: i }) }
    assert tracker.flush(timeout: 60)
    # About 4 kB each, 300 of them: more than 1 MiB. One user each, so that the service's Kafka batches
    # spread over partitions (the same user's 1 MiB is more than Kafka takes at once).
    big = unique('big')
    300.times { |i| tracker.track(user_id: "#{RUN}-u6-#{i}", event: big, properties: { i: i, blob: 'x' * 4000 }) }
    assert tracker.flush(timeout: 60)
    tracker.shutdown
    proxy.close

    bodies = proxy.seen.map(&:body)
    counts = bodies.map { |b| JSON.parse(b)['events'].size }
    assert_equal [1000, 1], counts.first(2)
    assert_equal [300, 4], [counts.drop(2).sum, counts.size], '300 events of 4 kB: two requests'
    assert_equal [1301, 0], [tracker.delivered_count, tracker.failed_count], 'every request answered 202'
    assert(bodies.all? { |b| b.bytesize <= limit })
    first_of_next = JSON.generate(JSON.parse(bodies[3])['events'][0]).bytesize
    assert_operator bodies[2].bytesize + 1 + first_of_next, :>, limit, 'the next event would not have fitted'
    rows = wait_for('the 1,001 small events') { (r = stored_rows(@reader, small, small_ids)).size == 1001 && r }
    assert_equal 1001, rows.size
  end

  def test_a_full_queue_drops_the_oldest_never_blocks_and_delivers_the_newest
    base_url, = service
    proxy = FaultProxy.new(base_url, hold: true)
    tracker = client(host: proxy.base_url, max_queue_size: 3, flush_interval: 60, timeout: 30)
    event = unique('bounded')
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    ids = (0..9).map { |i| tracker.track(user_id: "#{RUN}-u4", event: event, properties: { i: i }) }
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, 0.5, 'track must not wait'
    assert_equal 7, tracker.dropped_count

    flusher = Thread.new { tracker.flush(timeout: 30) }
    wait_for('the held request', timeout: 10) { proxy.seen.dup }
    proxy.release
    assert_equal true, flusher.value
    tracker.shutdown
    proxy.close

    sent = proxy.seen.map { |s| JSON.parse(s.body)['events'].map { |e| e['message_id'] } }
    assert_equal ids[7..], sent[0], 'the newest 3 in one batch'
    rows = wait_for('the newest 3 events') { (r = stored_rows(@reader, event, ids)).size >= 3 && r }
    assert_equal ids[7..].sort, rows.map { |r| r['message_id'] }.sort
  end

  def test_events_tracked_by_a_program_that_exits_without_flushing_arrive
    base_url, api_key = service
    event = unique('at-exit')
    message_id = unique('m')
    program = <<~RUBY
      require 'product_intelligence'
      c = ProductIntelligence::Client.new(api_key: ARGV[0], host: ARGV[1], flush_interval: 300)
      c.track(user_id: ARGV[2], event: ARGV[3], properties: { via: 'at_exit' }, message_id: ARGV[4])
    RUBY
    lib = File.expand_path('../lib', __dir__)
    _out, err, status = Open3.capture3(RbConfig.ruby, '-I', lib, '-e', program, api_key, base_url, "#{RUN}-u5",
                                       event, message_id)
    assert status.success?, err
    rows = wait_for('the event of the exited program') { stored_rows(@reader, event, [message_id]) }
    assert_equal({ 'via' => 'at_exit' }, rows[0]['properties'])
  end
end

class UsersTest < Minitest::Test
  include ServiceHelpers

  def test_identify_update_and_delete_a_user_whose_events_then_leave_the_export
    api = client(flush_interval: 0)
    user = unique('user')
    created = api.identify(user_id: user, properties: { plan: 'free', mrr: 0 })
    assert_equal [user, { 'plan' => 'free', 'mrr' => 0 }], [created['user_id'], created['properties']]
    updated = api.update_user(user_id: user, properties: { plan: 'pro', mrr: nil, company: { size: 40 } })
    assert_equal({ 'plan' => 'pro', 'company' => { 'size' => 40 } }, updated['properties'])
    assert_equal updated['properties'], api.get_user(user_id: user)['properties']
    again = api.identify(user_id: user, properties: { seats: 3 })
    assert_equal({ 'plan' => 'pro', 'company' => { 'size' => 40 }, 'seats' => 3 }, again['properties'])

    event = unique('erased')
    ids = (0..1).map { |i| api.track(user_id: user, event: event, properties: { i: i }) }
    assert api.flush(timeout: 30)
    wait_for("the user's events") { stored_rows(api, event, ids).size == 2 }

    deleted = api.delete_user(user_id: user)
    assert_equal [user, true], [deleted['user_id'], deleted['deleted']]
    assert_operator deleted['rows_deleted'], :>=, 3, '2 events and the user row'
    assert_empty stored_rows(api, event, ids)
    error = assert_raises(ProductIntelligence::ApiError) { api.get_user(user_id: user) }
    assert_equal [404, 'not_found'], [error.status, error.code]
    error = assert_raises(ProductIntelligence::ApiError) { api.update_user(user_id: user, properties: { plan: 'pro' }) }
    assert_equal 404, error.status
    api.shutdown
  end
end

class IdentityTest < Minitest::Test
  include ServiceHelpers

  def test_a_sign_up_funnel_counts_as_one_person_and_its_anonymous_id_links_to_no_second_user
    api = client(flush_interval: 0)
    anonymous_id = unique('anon')
    user = unique('signed-up')
    feature = unique('feature')
    hour_ago = Time.now.utc - 3600
    # Before sign-up the person is known by the anonymous id only: seen and used, data_volume 10.
    api.track(user_id: anonymous_id, event: 'page_view', properties: { page: '/signup' }, timestamp: hour_ago)
    api.track(user_id: anonymous_id, event: 'feature_impression', properties: { page: '/signup', feature: feature },
              timestamp: hour_ago + 1)
    api.track(user_id: anonymous_id, event: 'feature_used',
              properties: { page: '/signup', feature: feature, ui_context: { data_volume: 10 } },
              timestamp: hour_ago + 2)
    assert api.flush(timeout: 30)

    assert_equal user, api.identify(user_id: user, properties: { plan: 'trial' }, anonymous_id: anonymous_id)['user_id']
    # After sign-up, under the user id: used again, data_volume 30.
    api.track(user_id: user, event: 'feature_used',
              properties: { page: '/welcome', feature: feature, ui_context: { data_volume: 30 } },
              timestamp: hour_ago + 3)
    assert api.flush(timeout: 30)

    # The mean data volume is 20 only once both uses are counted; two people would be users_used 2.
    last = nil
    item = begin
      wait_for('both uses of the feature counted as one person', timeout: 90) do
        last = api.features(date_range: 'last_7_days')['features'].find { |f| f['name'] == feature }
        last if last && last['context']['avg_data_volume_when_used'] == 20 &&
                [last['users_saw'], last['users_used']] == [1, 1]
      end
    rescue Minitest::Assertion => e
      raise Minitest::Assertion, "#{e.message}; the feature last read: #{last.inspect}"
    end
    assert_equal 1, item['engagement_conversion']
    assert_equal user, api.get_user(user_id: user)['user_id']

    # The same link again is harmless; a second user, or a signed-up user's id as anonymous id, is refused.
    assert_equal user, api.identify(user_id: user, anonymous_id: anonymous_id)['user_id']
    { anonymous_id => 'linked_to_another_user', user => 'identified_user' }.each do |anonymous, reason|
      error = assert_raises(ProductIntelligence::ApiError) do
        api.identify(user_id: unique('other'), anonymous_id: anonymous)
      end
      assert_equal [409, 'conflict', { 'field' => 'anonymous_id', 'reason' => reason }],
                   [error.status, error.code, error.details]
    end
    api.shutdown
  end
end

class ReadsTest < Minitest::Test
  include ServiceHelpers

  def test_features_feature_detail_and_event_context_answer_after_events
    api = client(flush_interval: 0)
    user = unique('reader')
    feature = unique('feature')
    goal = unique('goal')
    api.identify(user_id: user, properties: { plan: 'pro' })
    api.track(user_id: user, event: 'page_view', properties: { page: '/reports' })
    api.track(user_id: user, event: 'feature_impression',
              properties: { page: '/reports', feature: feature, ui_context: { empty_state: true } })
    api.track(user_id: user, event: 'feature_used',
              properties: { page: '/reports', feature: feature, ui_context: { data_volume: 10 } })
    api.track(user_id: user, event: goal,
              properties: { page: '/reports', success: true, ui_context: { data_present: true } })
    assert api.flush(timeout: 30)

    item = wait_for('the feature in /analytics/features', timeout: 90) do
      api.features(date_range: 'last_7_days')['features'].find { |f| f['name'] == feature && f['users_used'] >= 1 }
    end
    assert_equal [1, 1], [item['users_saw'], item['users_used']]
    assert_equal 1, item['engagement_conversion']
    assert_equal 1, item['context']['visible_in_empty_state']
    assert_equal 10, item['context']['avg_data_volume_when_used']
    assert_includes %w[high_visibility_high_usage low_visibility_high_usage], item['quadrant']

    detail = api.feature(feature, date_range: 'last_7_days')
    assert_equal feature, detail['name']
    assert_equal 1, detail['metrics']['engagement_conversion']
    assert_equal %w[browsing documentation power_user_exploration recommendation], detail['discovery_methods'].keys.sort

    context = wait_for("the goal's context") { context_of(api, goal) }
    assert_equal 1, context['context_breakdown']['with_data_present']['count']
    assert_equal 1, context['context_breakdown']['with_data_present']['success_rate']

    error = assert_raises(ProductIntelligence::ApiError) { api.feature(unique('never-seen')) }
    assert_equal [404, 'not_found'], [error.status, error.code]
    error = assert_raises(ProductIntelligence::ApiError) { api.features(date_range: 'last_8_days') }
    assert_equal [400, 'date_range'], [error.status, error.details['field']]

    friction = api.friction(page: '/reports', date_range: export_window)
    assert_kind_of Array, friction['friction_points']
    assert_equal export_window.begin.iso8601, friction['date_range']['start']
    assert_kind_of Array, api.friction_trends(by: 'page')['trends']
    assert_kind_of Array, api.behavioural_cohorts['cohorts']
    assert_kind_of Array, api.workflows(goal: goal)['workflows']
    api.shutdown
  end

  def test_jobs_crud_with_typed_answers_and_errors
    api = client
    name = unique('job')
    created = api.create_job(name: name, goal: unique('never-tracked-goal'), priority: 'medium',
                             target_audience: { type: 'segment', criteria: "plan == 'pro'" },
                             automation: { level: 'subtle_hints', requires_confirmation: false })
    assert_equal [name, 'draft'], [created['name'], created['status']]
    assert created['id'].start_with?('job_')

    job = api.get_job(created['id'])
    assert_equal({ 'type' => 'segment', 'criteria' => "plan == 'pro'" }, job['target_audience'])
    assert_equal 0, job['metrics']['users_targeted']

    conflict = assert_raises(ProductIntelligence::ApiError) { api.update_job(created['id'], status: 'paused') }
    assert_equal [409, 'conflict'], [conflict.status, conflict.code]
    assert_equal %w[draft paused], [conflict.details['from'], conflict.details['to']]

    updated = api.update_job(created['id'], status: 'active', priority: 'high')
    assert_equal %w[active high], [updated['status'], updated['priority']]
    listed = api.list_jobs(status: 'active', per_page: 100)
    assert_includes listed['jobs'].map { |j| j['id'] }, created['id']
    assert_equal 100, listed['per_page']
    analytics = api.job_analytics(created['id'])
    assert_equal created['id'], analytics['job_id']
    assert_equal %w[avg_time_to_completion completion_rate intervention_acceptance_rate users_completed users_targeted],
                 analytics['metrics'].keys.sort

    assert_equal({ 'id' => created['id'], 'deleted' => true }, api.delete_job(created['id']))
    error = assert_raises(ProductIntelligence::ApiError) { api.get_job(created['id']) }
    assert_equal 404, error.status

    error = assert_raises(ProductIntelligence::ApiError) { api.create_job(name: '') }
    assert_equal [400, 'name'], [error.status, error.details['field']]
    api.shutdown
  end

  def test_custom_cohorts_and_webhooks
    api = client
    name = unique('cohort')
    cohort = api.create_custom_cohort(name: name, criteria: { events: { gte: 1 } })
    assert_equal [name, 'custom'], [cohort['name'], cohort['type']]
    assert_includes api.custom_cohorts(per_page: 100)['cohorts'].map { |c| c['id'] }, cohort['id']
    assert_equal cohort['id'], api.custom_cohort_users(cohort['id'])['cohort_id']
    error = assert_raises(ProductIntelligence::ApiError) do
      api.create_custom_cohort(name: name, criteria: { mood: { gte: 1 } })
    end
    assert_equal 'unknown_metric', error.details['reason']
    assert_equal({ 'id' => cohort['id'], 'deleted' => true }, api.delete_custom_cohort(cohort['id']))
    refute_includes api.custom_cohorts(per_page: 100)['cohorts'].map { |c| c['id'] }, cohort['id']

    # A name that never resolves, and an event these tests never cause: nothing is sent anywhere
    # (the test delivery is attempted and fails on the name).
    hook = api.create_webhook(url: "https://hooks.example.invalid/#{RUN}", events: ['job.completed'])
    assert hook['secret'].start_with?('whsec_')
    assert_equal 'active', api.get_webhook(hook['id'])['status']
    paused = api.update_webhook(hook['id'], events: ['cohort.changed'], status: 'paused')
    assert_equal [['cohort.changed'], 'paused', hook['url']], [paused['events'], paused['status'], paused['url']]
    refute api.get_webhook(hook['id']).key?('secret')
    error = assert_raises(ProductIntelligence::ApiError) do
      api.update_webhook(hook['id'], url: 'http://hooks.example.invalid/')
    end
    assert_equal 'https_required', error.details['reason']
    sent = api.test_webhook(hook['id'])
    assert_equal [hook['id'], 'test', 'pending'], [sent['webhook_id'], sent['event'], sent['status']]
    assert_equal({ 'id' => hook['id'], 'deleted' => true }, api.delete_webhook(hook['id']))
    error = assert_raises(ProductIntelligence::ApiError) do
      api.create_webhook(url: 'http://hooks.example.invalid/', events: ['job.completed'])
    end
    assert_equal 'https_required', error.details['reason']
    api.shutdown
  end

  private

  def context_of(api, goal)
    api.event_context(goal, date_range: 'last_7_days')
  rescue ProductIntelligence::ApiError => e
    raise unless e.status == 404

    nil
  end
end
