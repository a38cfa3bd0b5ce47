# frozen_string_literal: true

require 'securerandom'
require_relative 'batching'
require_relative 'delivery'
require_relative 'errors'
require_relative 'reads'
require_relative 'transport'

module ProductIntelligence
  # Writes warnings and errors to $stderr when no logger is given (Logger itself leaves the default
  # gems in Ruby 3.5, and this gem depends on nothing).
  class StderrLogger
    def debug(*); end

    def info(*); end

    def warn(message)
      Kernel.warn(message)
    end

    def error(message)
      Kernel.warn(message)
    end
  end

  # One at_exit hook for all clients, holding only those not shut down yet: a client that is shut
  # down is not kept alive until exit.
  module ExitFlush
    @clients = {}.compare_by_identity
    @mutex = Mutex.new
    @installed = false

    def self.register(client)
      @mutex.synchronize do
        @clients[client] = client
        unless @installed
          @installed = true
          at_exit { flush_all }
        end
      end
    end

    def self.unregister(client)
      @mutex.synchronize { @clients.delete(client) }
    end

    def self.flush_all
      clients = @mutex.synchronize { @clients.values }
      clients.each do |client|
        client.shutdown
      rescue StandardError => e # never turn a clean exit into a backtrace
        Kernel.warn("product_intelligence: flush at exit failed: #{e.class}: #{e.message}")
      end
    end
  end

  # A client of one project (the API key's).
  #
  # Events go through a bounded queue that a background thread sends in batches; +track+ never waits
  # for the network and never raises. +identify+, +update_user+, +delete_user+ and the read helpers
  # (ProductIntelligence::Reads) are synchronous and raise ApiError or NetworkError.
  #
  # Options (README.md has the delivery guarantees):
  # - +host+: the service's address, "http://host:port" ("/v1" is added when missing).
  # - +timeout+: seconds for one HTTP attempt (open, write, each read), default 10.
  # - +max_queue_size+: events held at most, default 10,000; when full the oldest is dropped and
  #   counted in +dropped_count+. Keep it well above +batch_size+.
  # - +batch_size+: events per request, 1 to 1,000, default 500 (requests are also cut at 1 MiB).
  # - +flush_interval+: seconds an event may wait for its batch to fill, default 10. The service counts
  #   requests per project and hour (1,000 on the Standard tier): a steady trickle of events costs at
  #   most 3,600 / flush_interval requests an hour.
  # - +max_retries+: retries of a failed request (network error, 5xx, 429), default 10.
  # - +retry_base_delay+ / +retry_max_delay+: the backoff, 0.5 s doubling up to 30 s, with jitter; a
  #   Retry-After is always waited out.
  # - +on_error+: a callable +(error, events)+, called from the delivery thread with the events that
  #   were not delivered and why (a ProductIntelligence::Error). What it raises is logged and ignored.
  # - +logger+: anything with +warn+, +error+ and +info+ (a Logger), default warnings to $stderr.
  # - +flush_at_exit+: flush the queue when the program exits (at_exit), default true, waiting at
  #   most +shutdown_timeout+ seconds (default 10).
  class Client
    include Reads

    DEFAULT_HOST = 'http://127.0.0.1:3000'

    def initialize(api_key:, host: DEFAULT_HOST, timeout: 10, max_queue_size: 10_000, batch_size: 500,
                   flush_interval: 10, max_retries: 10, retry_base_delay: 0.5, retry_max_delay: 30,
                   on_error: nil, logger: nil, flush_at_exit: true, shutdown_timeout: 10)
      check_options(api_key: api_key, timeout: timeout, max_queue_size: max_queue_size, batch_size: batch_size,
                    flush_interval: flush_interval, max_retries: max_retries, retry_base_delay: retry_base_delay,
                    retry_max_delay: retry_max_delay, on_error: on_error)
      @logger = logger || StderrLogger.new
      @transport = Transport.new(base_url: Transport.base_url_of(host), api_key: api_key, timeout: timeout,
                                 max_retries: max_retries, retry_base_delay: retry_base_delay,
                                 retry_max_delay: retry_max_delay)
      @delivery = Delivery.new(transport: @transport, max_queue_size: max_queue_size, batch_size: batch_size,
                               flush_interval: flush_interval, on_error: on_error, logger: @logger)
      @shutdown_timeout = shutdown_timeout
      @closed = false
      ExitFlush.register(self) if flush_at_exit
    end

    def base_url
      @transport.base_url
    end

    # Events dropped because the queue was full (the oldest go first), or tracked after shutdown.
    def dropped_count
      @delivery.dropped
    end

    # Events given up and handed to on_error (refused by the service, retries exhausted, shutdown
    # timed out, or not encodable).
    def failed_count
      @delivery.failed
    end

    # Events the service acknowledged (202: durably stored in its log).
    def delivered_count
      @delivery.delivered
    end

    # Queues one event and returns its message_id (a new UUID unless given), or nil when the event
    # cannot be sent at all (reported to on_error). +timestamp+ (a Time or an ISO 8601 String)
    # defaults to now, so an event delivered late keeps the time it happened.
    def track(user_id:, event:, properties: {}, timestamp: nil, message_id: nil)
      message_id ||= SecureRandom.uuid
      payload = { 'user_id' => user_id, 'event' => event, 'message_id' => message_id }
      payload['properties'] = properties unless properties.nil?
      begin
        payload['timestamp'] = Batching.format_timestamp(timestamp || Time.now)
        encoded = Batching.encode(payload)
      rescue JSON::GeneratorError, TypeError, EncodingError, ArgumentError => e
        refuse(InvalidEventError.new("the event cannot be sent as JSON: #{e.message}", code: 'invalid_event'), payload)
        return nil
      end
      if encoded.bytesize > Batching::MAX_EVENT_BYTES
        message = "the event is #{encoded.bytesize} bytes of JSON; a request may hold #{Batching::MAX_EVENT_BYTES}"
        refuse(InvalidEventError.new(message, code: 'event_too_large'), payload)
        return nil
      end
      @delivery.enqueue(payload, encoded)
      message_id
    end

    # Blocks until every queued event is delivered or given up; false if +timeout+ (seconds) passed first.
    def flush(timeout: nil)
      @delivery.flush(timeout)
    end

    # Flushes (at most +timeout+ seconds, default shutdown_timeout) and stops the delivery thread.
    # Events tracked afterwards are dropped. True when everything was delivered.
    def shutdown(timeout: nil)
      return true if @closed

      @closed = true
      ExitFlush.unregister(self)
      @delivery.shutdown(timeout || @shutdown_timeout)
    end

    # POST /users/identify: creates the user or merges +properties+ into it (a key set to nil is removed).
    # +anonymous_id+: the id the person's events were sent under before sign-in; they become the user's
    # and count as one person. An anonymous id links to one user only: linking it to another raises
    # ApiError 409 "conflict" with details["reason"] == "linked_to_another_user".
    # @return [Hash] "user_id", "properties", "created_at", "updated_at"
    def identify(user_id:, properties: nil, anonymous_id: nil)
      write('POST', '/users/identify', Client.identify_body(user_id, properties, anonymous_id))
    end

    # The body of POST /users/identify; properties and anonymous_id only when given.
    def self.identify_body(user_id, properties, anonymous_id)
      body = { user_id: user_id }
      body[:properties] = properties unless properties.nil?
      body[:anonymous_id] = anonymous_id unless anonymous_id.nil?
      body
    end

    # PATCH /users/{id}: merges +properties+ into a known user (404 if unknown).
    # @return [Hash] the user as #identify
    def update_user(user_id:, properties:)
      write('PATCH', Transport.path_of('users', user_id), { properties: properties })
    end

    # DELETE /users/{id}: erases the user's data, including events already in flight.
    # @return [Hash] "user_id", "deleted" => true, "rows_deleted"
    def delete_user(user_id:)
      write('DELETE', Transport.path_of('users', user_id))
    end

    # @return [Hash] the user as #identify (404 if unknown)
    def get_user(user_id:)
      get(Transport.path_of('users', user_id))
    end

    private

    def refuse(error, payload)
      @delivery.report(error, [payload])
    end

    # What each option must be; every broken rule is raised as one ArgumentError.
    OPTION_RULES = {
      api_key: ['is required', ->(v, _) { v.is_a?(String) && !v.empty? }],
      timeout: ['must be positive', ->(v, _) { v.is_a?(Numeric) && v.positive? }],
      max_queue_size: ['must be an Integer >= 1', ->(v, _) { v.is_a?(Integer) && v >= 1 }],
      batch_size: ["must be an Integer from 1 to #{Batching::MAX_BATCH_EVENTS}",
                   ->(v, _) { v.is_a?(Integer) && v.between?(1, Batching::MAX_BATCH_EVENTS) }],
      flush_interval: ['must not be negative', ->(v, _) { v.is_a?(Numeric) && !v.negative? }],
      max_retries: ['must be an Integer >= 0', ->(v, _) { v.is_a?(Integer) && v >= 0 }],
      retry_base_delay: ['must be between 0 and retry_max_delay',
                         ->(v, o) { v.is_a?(Numeric) && v >= 0 && v <= o[:retry_max_delay] }],
      on_error: ['must respond to call', ->(v, _) { v.nil? || v.respond_to?(:call) }]
    }.freeze

    def check_options(**options)
      problems = OPTION_RULES.reject { |name, (_, ok)| ok.call(options[name], options) }
                             .map { |name, (rule, _)| "#{name} #{rule}" }
      raise ArgumentError, problems.join('; ') unless problems.empty?
    end
  end
end
