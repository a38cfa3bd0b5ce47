# frozen_string_literal: true

require 'time'

module ProductIntelligence
  # When to send a failed request again, and after how long (pure; the sleeping is the caller's).
  module RetryPolicy
    module_function

    # Exponential backoff with jitter: min(cap, base * 2**attempt) scaled by a random factor in
    # [0.5, 1), so clients that failed together do not come back together.
    def backoff_delay(attempt, base, cap, rand = -> { Kernel.rand })
      ceiling = [cap, base * (2**[attempt, 32].min)].min
      ceiling * (0.5 + (rand.call / 2.0))
    end

    # Seconds to wait from a Retry-After header: delta-seconds or an HTTP date.
    def parse_retry_after(value, now = Time.now)
      return nil if value.nil?

      value = value.strip
      return value.to_f if value.match?(/\A\d+\z/)

      [Time.httpdate(value) - now, 0.0].max
    rescue ArgumentError
      nil
    end

    # A request that is not idempotent (creating a job, a cohort, a webhook) is sent again only when
    # the service surely did not apply it: a 429 is refused before the handler, a refused connection
    # never arrived.
    def may_retry?(error, idempotent)
      return false unless error.retriable?
      return true if idempotent
      return error.status == 429 if error.is_a?(ApiError)

      error.is_a?(NetworkError) && error.before_send?
    end

    # The wait before attempt +attempt+ + 1: the backoff, or longer when the service said so.
    def retry_delay(error, attempt, base, cap, rand = -> { Kernel.rand })
      delay = backoff_delay(attempt, base, cap, rand)
      retry_after = error.respond_to?(:retry_after) ? error.retry_after : nil
      retry_after ? [delay, retry_after].max : delay
    end
  end
end
