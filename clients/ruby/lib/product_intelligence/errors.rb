# frozen_string_literal: true

module ProductIntelligence
  # Base of every error of this library, raised or handed to +on_error+. Each carries +status+
  # (nil when there was no HTTP answer), +code+, +message+ and +details+ -- the service's error body
  # {"error" => {"code", "message", "details"}} when there is one -- and +retriable?+: whether the same
  # request may succeed if sent again. Nothing else in the client classifies failures.
  class Error < StandardError
    attr_reader :status, :code, :details

    def initialize(message, code: nil, details: nil, status: nil)
      super(message)
      @code = code
      @details = details || {}
      @status = status
    end

    def retriable?
      false
    end

    # "400 invalid_request: events[3].event must NOT have fewer than 1 characters." for logs.
    def summary
      [status, code].compact.join(' ').then { |head| head.empty? ? message : "#{head}: #{message}" }
    end
  end

  # The service answered with a status that is not 2xx. A body that is not the service's (a proxy's
  # HTML page, say) leaves +code+ nil and puts its first characters in +message+. +retry_after+ holds
  # the seconds of a Retry-After header.
  class ApiError < Error
    attr_reader :retry_after

    def initialize(status, code, message, details = nil, retry_after: nil)
      super(message, code: code, details: details, status: status)
      @retry_after = retry_after
    end

    # 501 never changes by waiting; every other 5xx, and 429, may.
    def retriable?
      status == 429 || (status >= 500 && status != 501)
    end
  end

  # No usable answer: connection refused or reset, timeout, DNS failure, a body that broke off.
  # +before_send?+ is true when the request surely never reached the service (connection refused),
  # so even a request that is not idempotent may be sent again.
  class NetworkError < Error
    attr_reader :cause_error

    def initialize(message, cause_error = nil, before_send: false)
      super(message, code: 'network_error')
      @cause_error = cause_error
      @before_send = before_send
    end

    def retriable?
      true
    end

    def before_send?
      @before_send
    end
  end

  # +track+ could not queue the event (it cannot be turned into JSON, or it is larger than a request
  # may be). Handed to +on_error+, never raised by +track+.
  class InvalidEventError < Error; end

  # Events still queued or in flight when +shutdown+ ran out of time (code +shutdown_timeout+).
  class ShutdownTimeout < Error; end
end
