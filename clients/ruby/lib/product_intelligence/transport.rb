# frozen_string_literal: true

require 'json'
require 'net/http'
require 'uri'
require_relative 'batching'
require_relative 'errors'
require_relative 'retry_policy'
require_relative 'version'

module ProductIntelligence
  # Every HTTP request of the client goes through here: one place that builds URLs, sends the key,
  # turns answers into Ruby values or errors, and retries (see RetryPolicy).
  class Transport
    USER_AGENT = "product-intelligence-ruby/#{VERSION} (Ruby #{RUBY_VERSION})".freeze
    # What a broken connection looks like in Net::HTTP (OpenSSL's errors are added when it is loaded).
    NETWORK_ERRORS = [SystemCallError, IOError, SocketError, Timeout::Error, Net::ProtocolError].freeze

    Response = Struct.new(:status, :headers, :body) do
      def json
        body.nil? || body.empty? ? nil : JSON.parse(body)
      end
    end

    attr_reader :base_url, :timeout, :max_retries

    # "http://h:3000", "http://h:3000/" and "http://h:3000/v1" all mean "http://h:3000/v1".
    def self.base_url_of(host)
      uri = URI.parse(host.to_s.strip)
      raise ArgumentError, "host must be an http:// or https:// URL, not #{host.inspect}" unless
        %w[http https].include?(uri.scheme) && uri.host

      path = uri.path.sub(%r{/+\z}, '')
      path += '/v1' unless path.end_with?('/v1')
      "#{uri.scheme}://#{uri.host}#{uri.port == uri.default_port ? '' : ":#{uri.port}"}#{path}"
    rescue URI::InvalidURIError
      raise ArgumentError, "host must be an http:// or https:// URL, not #{host.inspect}"
    end

    # A path from segments, each one percent-encoded ("/" included).
    def self.path_of(*segments)
      segments.map { |s| "/#{URI.encode_www_form_component(s.to_s).gsub('+', '%20')}" }.join
    end

    # The service's error body, or as much of an unknown body as helps a person.
    def self.error_of(status, headers, body)
      retry_after = RetryPolicy.parse_retry_after(headers && headers['retry-after'])
      error = JSON.parse(body.to_s).fetch('error')
      ApiError.new(status, error['code'], error['message'].to_s, error['details'], retry_after: retry_after)
    rescue JSON::ParserError, KeyError, TypeError, NoMethodError
      text = body.to_s.byteslice(0, 200).to_s.scrub.strip
      ApiError.new(status, nil, text.empty? ? "HTTP #{status}" : text, nil, retry_after: retry_after)
    end

    def self.query_value(value)
      case value
      when Array then value.join(',')
      when Date, Time then value.strftime('%Y-%m-%d')
      else value.to_s
      end
    end

    def initialize(base_url:, api_key:, timeout:, max_retries:, retry_base_delay:, retry_max_delay:)
      @base_url = base_url
      @api_key = api_key
      @timeout = timeout
      @max_retries = max_retries
      @retry_base_delay = retry_base_delay
      @retry_max_delay = retry_max_delay
    end

    # One attempt. With a block, the 2xx response is yielded before its body is read (streaming);
    # without, the body is read. Raises ApiError for other statuses, NetworkError when no answer.
    def send_once(method, path, query: nil, body: nil, accept: 'application/json', &block)
      uri = uri_of(path, query)
      request = build_request(method, uri, body, accept)
      http = Net::HTTP.new(uri.host, uri.port) # proxies from the environment, as Net::HTTP does
      http.use_ssl = uri.scheme == 'https'
      http.open_timeout = http.read_timeout = http.write_timeout = @timeout
      http.max_retries = 0 # retries are ours, with backoff
      http.start { |connection| perform(connection, request, &block) }
    rescue ApiError
      raise
    rescue *network_errors => e
      raise NetworkError.new("#{method} #{path}: #{e.class}: #{e.message}", e,
                             before_send: e.is_a?(Errno::ECONNREFUSED))
    end

    # Sends with retries. +sleep+ is called with the seconds to wait and returns false to abandon the
    # waits (shutdown); a wait longer than +max_wait+ (a long Retry-After in a synchronous call) is not
    # made: the error is raised.
    def request(method, path, query: nil, body: nil, idempotent: true, max_wait: nil,
                sleep: ->(seconds) { Kernel.sleep(seconds) || true }, on_retry: nil)
      data = body.nil? || body.is_a?(String) ? body : Batching.encode(body)
      attempt = 0
      begin
        send_once(method, path, query: query, body: data)
      rescue Error => e
        raise if attempt >= @max_retries || !RetryPolicy.may_retry?(e, idempotent)

        delay = RetryPolicy.retry_delay(e, attempt, @retry_base_delay, @retry_max_delay)
        raise if max_wait && delay > max_wait

        on_retry&.call(e, delay)
        raise unless sleep.call(delay)

        attempt += 1
        retry
      end
    end

    private

    def uri_of(path, query)
      uri = URI("#{@base_url}#{path}")
      params = (query || {}).compact.map { |k, v| [k.to_s, self.class.query_value(v)] }
      uri.query = URI.encode_www_form(params) unless params.empty?
      uri
    end

    def build_request(method, uri, body, accept)
      request = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.request_uri)
      request['Authorization'] = "Bearer #{@api_key}"
      request['Accept'] = accept
      request['User-Agent'] = USER_AGENT
      unless body.nil?
        request['Content-Type'] = 'application/json'
        request.body = body
      end
      request
    end

    def perform(connection, request)
      result = nil
      connection.request(request) do |response|
        status = response.code.to_i
        raise self.class.error_of(status, response, response.read_body) unless status.between?(200, 299)

        result = block_given? ? yield(response) : Response.new(status, response.to_hash, response.read_body)
      end
      result
    end

    def network_errors
      defined?(OpenSSL::SSL::SSLError) ? NETWORK_ERRORS + [OpenSSL::SSL::SSLError] : NETWORK_ERRORS
    end
  end
end
