# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
require 'minitest/autorun'
require 'date'
require 'json'
require 'net/http'
require 'securerandom'
require 'socket'
require 'product_intelligence'

# What the tests against the running service share: its address and key, a real fault-injecting
# HTTP proxy, and waiting on conditions.
module ServiceHelpers
  # A prefix that makes this run's users, events and features its own in a shared project.
  RUN = "rb-#{SecureRandom.hex(4)}".freeze

  # Logs nothing: the tests look at on_error instead of printing what the client gives up.
  class QuietLogger
    def debug(*); end
    def info(*); end
    def warn(*); end
    def error(*); end
  end

  def self.service
    base_url = ENV.fetch('PI_BASE_URL', '')
    api_key = ENV.fetch('PI_API_KEY', '')
    if base_url.empty? || api_key.empty?
      raise 'These tests run against the service: set PI_BASE_URL (e.g. http://127.0.0.1:3100/v1) and ' \
            'PI_API_KEY (an admin key of a project used only by this run).'
    end
    [base_url, api_key]
  end

  def service
    ServiceHelpers.service
  end

  def client(host: nil, **options)
    base_url, api_key = service
    ProductIntelligence::Client.new(api_key: api_key, host: host || base_url, flush_at_exit: false,
                                    logger: QuietLogger.new, **options)
  end

  def unique(name)
    "#{RUN}-#{name}-#{SecureRandom.hex(3)}"
  end

  # Polls until the block returns something truthy (and not empty); the pause grows from 0.2 s to
  # 2 s, since every poll is a request the project's hourly budget counts.
  def wait_for(what, timeout: 60)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    pause = 0.2
    loop do
      value = yield
      return value if value && !(value.respond_to?(:empty?) && value.empty?)
      raise Minitest::Assertion, "timed out after #{timeout} s waiting for #{what}" if
        Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

      sleep pause
      pause = [2.0, pause * 1.5].min
    end
  end

  # Yesterday to tomorrow (UTC): today's events whatever the hour.
  def export_window
    today = Time.now.utc.to_date
    (today - 1)..(today + 1)
  end

  def stored_rows(reader, event, message_ids)
    reader.export_events(date_range: export_window, event_types: [event])
          .select { |row| message_ids.include?(row['message_id']) }
  end

  # Collects what an on_error callback is given.
  class Errors
    attr_reader :calls

    def initialize
      @calls = []
      @mutex = Mutex.new
    end

    def to_proc
      ->(error, events) { @mutex.synchronize { @calls << [error, events] } }
    end
  end
end

# A real HTTP server between a client and the service. +script+ lists the answers of the first
# requests ([status, headers]); after it, requests are forwarded. While held, requests wait (the
# connection stays open) until #release.
class FaultProxy
  Seen = Struct.new(:at, :verb, :path, :body)

  attr_reader :seen

  def initialize(upstream_base_url, script: [], hold: false)
    upstream = URI(upstream_base_url)
    @upstream_host = upstream.host
    @upstream_port = upstream.port
    @script = script.dup
    @seen = []
    @open = !hold
    @mutex = Mutex.new
    @cond = ConditionVariable.new
    @server = TCPServer.new('127.0.0.1', 0)
    @acceptor = Thread.new { accept_loop }
  end

  def base_url
    "http://127.0.0.1:#{@server.addr[1]}/v1"
  end

  def release
    @mutex.synchronize do
      @open = true
      @cond.broadcast
    end
  end

  def close
    release
    @acceptor.kill
    @server.close
  end

  private

  def accept_loop
    loop do
      socket = @server.accept
      Thread.new(socket) { |s| handle(s) }
    end
  rescue IOError, Errno::EBADF
    nil
  end

  def handle(socket)
    method, path, headers, body = read_request(socket)
    scripted = @mutex.synchronize do
      @seen << Seen.new(Process.clock_gettime(Process::CLOCK_MONOTONIC), method, path, body)
      @script.shift
    end
    @mutex.synchronize { @cond.wait(@mutex, 60) until @open }
    status, out_headers, out_body = scripted ? answer(*scripted) : forward(method, path, headers, body)
    socket.write("HTTP/1.1 #{status} X\r\n")
    out_headers.merge('Content-Length' => out_body.bytesize.to_s, 'Connection' => 'close')
               .each { |name, value| socket.write("#{name}: #{value}\r\n") }
    socket.write("\r\n#{out_body}")
  rescue IOError, SystemCallError
    nil
  ensure
    socket.close unless socket.closed?
  end

  def read_request(socket)
    method, path = socket.gets("\r\n").split
    headers = {}
    while (line = socket.gets("\r\n")) && line != "\r\n"
      name, value = line.split(':', 2)
      headers[name.downcase] = value.strip
    end
    [method, path, headers, socket.read(headers.fetch('content-length', '0').to_i)]
  end

  def answer(status, headers)
    body = '{"error":{"code":"scripted","message":"injected by the test proxy","details":{}}}'
    [status, headers.merge('Content-Type' => 'application/json'), body]
  end

  def forward(method, path, headers, body)
    request = Net::HTTPGenericRequest.new(method, !body.empty?, true, path)
    %w[authorization content-type accept].each { |h| request[h] = headers[h] if headers[h] }
    request.body = body unless body.empty?
    response = Net::HTTP.start(@upstream_host, @upstream_port, read_timeout: 30) { |http| http.request(request) }
    [response.code, { 'Content-Type' => response['content-type'].to_s }, response.body.to_s]
  end
end
