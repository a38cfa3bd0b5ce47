# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
require 'minitest/autorun'
require 'date'
require 'json'
require 'product_intelligence'

# Pure parts of the client, no network: batching, backoff, header and URL handling.
class BatchingTest < Minitest::Test
  B = ProductIntelligence::Batching

  def test_a_batch_stops_at_the_event_count
    assert_equal 1000, B.batch_length([10] * 2500, 1000)
    assert_equal 7, B.batch_length([10] * 7, 1000)
    assert_equal 0, B.batch_length([], 1000)
  end

  def test_the_byte_limit_counts_the_envelope_and_the_commas_exactly
    room = B::MAX_BODY_BYTES - B.batch_body([]).bytesize - 1 # two events and one comma
    assert_equal B::MAX_BODY_BYTES, B.batch_body(['x' * 100, 'x' * (room - 100)]).bytesize
    assert_equal 2, B.batch_length([100, room - 100], 1000)
    assert_equal 1, B.batch_length([100, room - 99], 1000)
    assert_equal 1, B.batch_length([B::MAX_EVENT_BYTES], 1000)
  end

  def test_the_event_a_400_names_is_found
    assert_equal 3, B.rejected_index('events[3].user_id', 5)
    assert_equal 0, B.rejected_index('events[0].properties.ui_context.empty_state', 1)
    assert_nil B.rejected_index('events[9].event', 5), 'not in this batch'
    assert_nil B.rejected_index('events', 5)
    assert_nil B.rejected_index(nil, 5)
  end

  def test_encoding_converts_times_dates_and_symbols
    value = { at: Time.utc(2025, 3, 1, 12, 0, 0, 123_456), day: Date.new(2025, 3, 1), kind: :click, name: 'Zoë' }
    assert_equal({ 'at' => '2025-03-01T12:00:00.123Z', 'day' => '2025-03-01', 'kind' => 'click', 'name' => 'Zoë' },
                 JSON.parse(B.encode(value)))
    assert_raises(JSON::GeneratorError) { B.encode({ x: Float::NAN }) }
  end

  def test_timestamps_carry_a_zone
    assert_equal '2025-03-01T12:00:00.000Z', B.format_timestamp(Time.new(2025, 3, 1, 14, 0, 0, '+02:00'))
    assert_equal '2025-03-01T12:00:00+01:00', B.format_timestamp('2025-03-01T12:00:00+01:00')
    assert_raises(TypeError) { B.format_timestamp(1_740_830_400) }
  end
end

class RetryPolicyTest < Minitest::Test
  R = ProductIntelligence::RetryPolicy
  ApiError = ProductIntelligence::ApiError
  NetworkError = ProductIntelligence::NetworkError

  def test_backoff_doubles_up_to_the_cap_with_jitter_in_its_upper_half
    assert_equal([0.25, 0.5, 1, 2, 4, 8, 15, 15], (0..7).map { |a| R.backoff_delay(a, 0.5, 30, -> { 0.0 }) })
    assert_in_delta 4, R.backoff_delay(3, 0.5, 30, -> { 0.999999 }), 0.0001
    assert_equal 15, R.backoff_delay(10_000, 0.5, 30, -> { 0.0 })
  end

  def test_retry_after_is_waited_out_even_when_the_backoff_is_shorter
    limited = ApiError.new(429, 'rate_limited', 'slow down', retry_after: 7.0)
    assert_equal 7, R.retry_delay(limited, 0, 0.5, 30, -> { 0.0 })
    assert_equal 0.25, R.retry_delay(ApiError.new(503, nil, 'x'), 0, 0.5, 30, -> { 0.0 })
  end

  def test_retry_after_in_seconds_or_as_a_date
    assert_equal 120, R.parse_retry_after('120')
    now = Time.utc(2025, 3, 1, 12, 0, 0)
    assert_equal 30, R.parse_retry_after('Sat, 01 Mar 2025 12:00:30 GMT', now)
    assert_equal 0, R.parse_retry_after('Sat, 01 Mar 2025 11:00:00 GMT', now)
    assert_nil R.parse_retry_after('soon')
    assert_nil R.parse_retry_after(nil)
  end

  def test_what_is_retried
    { 400 => false, 401 => false, 404 => false, 409 => false, 429 => true, 500 => true, 501 => false,
      503 => true }.each do |status, retried|
      assert_equal retried, R.may_retry?(ApiError.new(status, nil, ''), true), status
    end
    assert R.may_retry?(NetworkError.new('reset'), true)
  end

  def test_a_request_that_is_not_idempotent_is_sent_again_only_when_surely_not_applied
    assert R.may_retry?(ApiError.new(429, nil, ''), false)
    refute R.may_retry?(ApiError.new(503, nil, ''), false)
    refute R.may_retry?(NetworkError.new('timed out'), false)
    assert R.may_retry?(NetworkError.new('refused', before_send: true), false)
  end
end

class TransportTest < Minitest::Test
  T = ProductIntelligence::Transport

  def test_host_gets_the_version_prefix_once
    ['http://h:3000', 'http://h:3000/', 'http://h:3000/v1', 'http://h:3000/v1/'].each do |host|
      assert_equal 'http://h:3000/v1', T.base_url_of(host)
    end
    assert_equal 'https://h/pi/v1', T.base_url_of('https://h/pi')
    assert_raises(ArgumentError) { T.base_url_of('h:3000') }
  end

  def test_path_segments_are_percent_encoded
    assert_equal '/users/a%2Fb%20c%3F', T.path_of('users', 'a/b c?')
  end

  def test_the_error_body_is_read_and_an_unknown_body_is_kept_short
    body = '{"error":{"code":"invalid_request","message":"m","details":{"field":"name","reason":"required"}}}'
    err = T.error_of(400, {}, body)
    assert_equal [400, 'invalid_request', 'm', { 'field' => 'name', 'reason' => 'required' }],
                 [err.status, err.code, err.message, err.details]
    html = T.error_of(502, { 'retry-after' => '3' }, "<html>Bad gateway</html>#{'x' * 500}")
    assert_equal [502, nil, 3, true], [html.status, html.code, html.retry_after, html.retriable?]
    assert_operator html.message.size, :<=, 200
  end
end

class IdentifyBodyTest < Minitest::Test
  def test_anonymous_id_is_sent_only_when_given
    body = ProductIntelligence::Client.method(:identify_body)
    assert_equal({ user_id: 'u_42' }, body.call('u_42', nil, nil))
    assert_equal({ user_id: 'u_42', properties: { plan: 'pro' }, anonymous_id: 'anon_7' },
                 body.call('u_42', { plan: 'pro' }, 'anon_7'))
  end
end

class OptionsAndTrackTest < Minitest::Test
  def new_client(**options)
    ProductIntelligence::Client.new(api_key: 'k', host: 'http://127.0.0.1:9', flush_at_exit: false, **options)
  end

  def test_bad_options_are_refused_at_construction
    [{ batch_size: 0 }, { batch_size: 1001 }, { max_queue_size: 0 }, { timeout: 0 }, { on_error: 1 }].each do |options|
      assert_raises(ArgumentError, options.inspect) { new_client(**options) }
    end
    assert_raises(ArgumentError) { ProductIntelligence::Client.new(api_key: '', flush_at_exit: false) }
  end

  def test_an_event_that_cannot_be_json_is_reported_not_raised
    seen = []
    client = new_client(on_error: ->(error, events) { seen << [error, events] }, logger: Class.new do
      def error(*); end
    end.new)
    assert_nil client.track(user_id: 'u', event: 'e', properties: { x: Float::NAN })
    assert_nil client.track(user_id: 'u', event: "e\xff".b)
    assert_nil client.track(user_id: 'u', event: 'e',
                            properties: { blob: 'x' * ProductIntelligence::Batching::MAX_BODY_BYTES })
    assert_equal(%w[invalid_event invalid_event event_too_large], seen.map { |e, _| e.code })
    assert(seen.all? { |e, _| e.is_a?(ProductIntelligence::InvalidEventError) })
    assert_equal 3, client.failed_count
    assert client.flush(timeout: 1), 'nothing was queued'
  end
end
