# frozen_string_literal: true

require 'json'
require 'time'
require 'date'

module ProductIntelligence
  # Pure helpers of the event queue: encoding events and cutting batches the service accepts. The
  # service takes 1 to 1,000 events per POST /v1/events/batch in at most 1 MiB, all or nothing: one
  # invalid event makes the whole request a 400 that names it (events[7].event).
  module Batching
    MAX_BATCH_EVENTS = 1000
    MAX_BODY_BYTES = 1_048_576
    ENVELOPE_HEAD = '{"events":['
    ENVELOPE_TAIL = ']}'
    # The largest encoded event that fits in a batch of its own.
    MAX_EVENT_BYTES = MAX_BODY_BYTES - ENVELOPE_HEAD.bytesize - ENVELOPE_TAIL.bytesize
    FIELD_INDEX = /\Aevents\[(\d+)\]/

    module_function

    # ISO 8601 in UTC with milliseconds; a String is passed on as it is.
    def format_timestamp(value)
      case value
      when String then value
      when Time then value.getutc.strftime('%Y-%m-%dT%H:%M:%S.%LZ')
      when DateTime then format_timestamp(value.to_time)
      else raise TypeError, "timestamp must be a Time or an ISO 8601 String, not #{value.class}"
      end
    end

    # Values JSON.generate would write badly (a Time as "2025-03-01 12:00:00 UTC") made JSON-ready.
    def jsonable(value)
      case value
      when Hash then value.each_with_object({}) { |(k, v), out| out[k.to_s] = jsonable(v) }
      when Array then value.map { |v| jsonable(v) }
      when Time, DateTime then format_timestamp(value)
      when Date then value.iso8601
      when Symbol then value.to_s
      else loaded_class_value(value)
      end
    end

    # BigDecimal and Set exist only once the application loaded them.
    def loaded_class_value(value)
      return value.to_f if defined?(BigDecimal) && value.is_a?(BigDecimal)
      return value.to_a.map { |v| jsonable(v) } if defined?(Set) && value.is_a?(Set)

      value
    end

    # Compact UTF-8 JSON; raises JSON::GeneratorError (NaN, invalid UTF-8) or TypeError.
    def encode(value)
      json = JSON.generate(jsonable(value))
      raise JSON::GeneratorError, 'the JSON is not valid UTF-8' unless json.valid_encoding?

      json.encode(Encoding::UTF_8)
    end

    def batch_body(encoded_events)
      +"#{ENVELOPE_HEAD}#{encoded_events.join(',')}#{ENVELOPE_TAIL}"
    end

    # How many of the leading events (by encoded size) fit in one request: at least one when any are
    # given (track refuses events larger than MAX_EVENT_BYTES).
    def batch_length(sizes, max_events, max_bytes = MAX_BODY_BYTES)
      used = ENVELOPE_HEAD.bytesize + ENVELOPE_TAIL.bytesize
      count = 0
      sizes.first(max_events).each do |size|
        extra = size + (count.zero? ? 0 : 1)
        break if count.positive? && used + extra > max_bytes

        used += extra
        count += 1
      end
      count
    end

    # The event a batch 400 names (details.field "events[3].user_id" -> 3), if it is in the batch.
    def rejected_index(field, batch_size)
      match = FIELD_INDEX.match(field.to_s)
      return nil unless match

      index = match[1].to_i
      index < batch_size ? index : nil
    end
  end
end
