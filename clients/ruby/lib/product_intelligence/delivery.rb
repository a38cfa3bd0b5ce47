# frozen_string_literal: true

require_relative 'batching'
require_relative 'errors'

module ProductIntelligence
  # The bounded event queue and the background thread that empties it in batches.
  #
  # Invariants:
  # - +enqueue+ never waits for the network and never raises: when the queue is full the OLDEST event
  #   is dropped and counted (+dropped+).
  # - Events leave in the order they were tracked, one request at a time; a batch is retried with the
  #   same body (so the same message ids) until it is delivered or given up.
  # - Every event tracked ends in exactly one of: delivered, dropped (queue full) or failed (handed to
  #   +on_error+ with the reason). Nothing raised in the thread reaches the host application.
  class Delivery
    Item = Struct.new(:event, :encoded, :queued_at)

    attr_reader :dropped, :failed, :delivered

    def initialize(transport:, max_queue_size:, batch_size:, flush_interval:, on_error:, logger:)
      @transport = transport
      @max_queue_size = max_queue_size
      @batch_size = [batch_size, Batching::MAX_BATCH_EVENTS].min
      @flush_interval = flush_interval
      @on_error = on_error
      @logger = logger
      init_state
    end

    # --- called by the host application's threads ---

    def enqueue(event, encoded)
      reset_after_fork
      @mutex.synchronize do
        if @stopping
          @dropped += 1
          @logger.warn("product_intelligence: event #{event['event']} dropped: the client is shut down")
          next
        end
        drop_oldest if @queue.size >= @max_queue_size
        @queue.push(Item.new(event, encoded, now))
        ensure_worker
        @cond.broadcast if @queue.size == 1 || @queue.size >= @batch_size
      end
    end

    # True once the queue is empty and nothing is in flight; false if +timeout+ (seconds) came first.
    def flush(timeout = nil)
      reset_after_fork
      deadline = timeout && (now + timeout)
      @mutex.synchronize do
        return false if Thread.current == @thread # from on_error: waiting for ourselves would never end

        ensure_worker unless @queue.empty?
        @flush_requested = true
        @cond.broadcast
        until @queue.empty? && @in_flight.zero?
          remaining = deadline && (deadline - now)
          return false if remaining && remaining <= 0

          @cond.wait(@mutex, remaining)
        end
        true
      end
    end

    # Flushes, then stops the thread. What is not delivered within +timeout+ is given up and reported
    # to on_error (ShutdownTimeout, code shutdown_timeout).
    def shutdown(timeout)
      started = now
      delivered = flush(timeout)
      thread = @mutex.synchronize do
        @stopping = true
        @aborted = true unless delivered
        @cond.broadcast
        @thread
      end
      # An attempt already on the wire may take up to the request timeout to end.
      if thread && thread != Thread.current
        thread.join([0.1,
                     (timeout || 0) - (now - started)].max + @transport.timeout)
      end
      give_up_queue unless delivered
      delivered
    end

    # Counts +events+ as failed and hands them to on_error; never raises.
    def report(error, events)
      @mutex.synchronize { @failed += events.size }
      @logger.error("product_intelligence: #{events.size} event(s) not delivered: #{error.summary}")
      @on_error&.call(error, events)
    rescue StandardError => e
      @logger.error("product_intelligence: on_error raised #{e.class}: #{e.message}")
    end

    private

    def init_state
      @mutex = Mutex.new
      @cond = ConditionVariable.new
      @queue = []
      @in_flight = 0
      @flush_requested = false
      @stopping = false
      @aborted = false
      @thread = nil
      @dropped = 0
      @failed = 0
      @delivered = 0
      @pid = Process.pid
    end

    # A forked child gets an empty queue and a thread of its own; the parent still delivers what it had.
    def reset_after_fork
      init_state if Process.pid != @pid
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    def drop_oldest
      @queue.shift
      @dropped += 1
      return unless @dropped == 1 || (@dropped % 1000).zero?

      @logger.warn("product_intelligence: queue full (#{@max_queue_size} events), oldest dropped; " \
                   "#{@dropped} dropped so far")
    end

    def ensure_worker
      return if @thread&.alive?

      @thread = Thread.new { run }
      @thread.name = 'product-intelligence-delivery' if @thread.respond_to?(:name=)
      @thread.report_on_exception = false
    end

    # --- the delivery thread ---

    def run
      while (items = next_batch)
        begin
          deliver(items)
        rescue StandardError => e # a bug of ours must not stop delivery for good
          report(Error.new("unexpected error: #{e.class}: #{e.message}", code: 'internal_error'), items.map(&:event))
        ensure
          @mutex.synchronize do
            @in_flight = 0
            @cond.broadcast
          end
        end
      end
    end

    # Waits until a batch is due (full, interval passed, flush or shutdown asked); nil = stop.
    def next_batch
      @mutex.synchronize do
        loop do
          return nil if @aborted

          if @queue.empty?
            @flush_requested = false
            return nil if @stopping

            @cond.wait(@mutex)
            next
          end
          break if @flush_requested || @stopping || @queue.size >= @batch_size

          remaining = @queue.first.queued_at + @flush_interval - now
          break if remaining <= 0

          @cond.wait(@mutex, remaining)
        end
        count = Batching.batch_length(@queue.first(@batch_size).map { |item| item.encoded.bytesize }, @batch_size)
        items = @queue.shift(count)
        @in_flight = items.size
        items
      end
    end

    def deliver(items)
      parts = [items]
      until parts.empty?
        part = parts.shift
        if aborted?
          report(shutdown_timeout, part.map(&:event))
          next
        end
        begin
          @transport.request('POST', '/events/batch', body: Batching.batch_body(part.map(&:encoded)),
                                                      sleep: ->(seconds) { wait_unless_aborted(seconds) },
                                                      on_retry: ->(error, delay) { log_retry(error, delay) })
          @mutex.synchronize { @delivered += part.size }
        rescue ApiError => e
          parts.unshift(*rest_after(e, part))
        rescue Error => e
          report(e, part.map(&:event))
        end
      end
    end

    # The service refuses a batch as a whole: drop the event a 400 names and send the rest again; cut a
    # 413 in halves; give up the batch otherwise. Returns the parts still to send.
    def rest_after(error, part)
      rejected = error.status == 400 ? Batching.rejected_index(error.details['field'], part.size) : nil
      if rejected
        report(error, [part[rejected].event])
        rest = part[0...rejected] + part[(rejected + 1)..]
        rest.empty? ? [] : [rest]
      elsif error.status == 413 && part.size > 1
        [part[0...(part.size / 2)], part[(part.size / 2)..]]
      else
        report(error, part.map(&:event))
        []
      end
    end

    def aborted?
      @mutex.synchronize { @aborted }
    end

    # Sleeps +seconds+ unless shutdown gives up first; false when it did.
    def wait_unless_aborted(seconds)
      deadline = now + seconds
      @mutex.synchronize do
        until @aborted
          remaining = deadline - now
          return true if remaining <= 0

          @cond.wait(@mutex, remaining)
        end
        false
      end
    end

    def give_up_queue
      left = @mutex.synchronize do
        items = @queue.dup
        @queue.clear
        @cond.broadcast
        items
      end
      report(shutdown_timeout, left.map(&:event)) unless left.empty?
    end

    def shutdown_timeout
      ShutdownTimeout.new('not delivered before shutdown timed out', code: 'shutdown_timeout')
    end

    def log_retry(error, delay)
      @logger.info("product_intelligence: batch not delivered (#{error.summary}), next try in #{delay.round(1)} s")
    end
  end
end
