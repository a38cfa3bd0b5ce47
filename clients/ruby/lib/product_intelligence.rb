# frozen_string_literal: true

# Ruby client of the product-intelligence service (standard library only).
#
#   require 'product_intelligence'
#
#   client = ProductIntelligence::Client.new(api_key: ENV.fetch('PI_API_KEY'), host: 'https://pi.example.com')
#   client.track(user_id: 'u_42', event: 'feature_used', properties: { feature: 'export_csv' })
#   client.identify(user_id: 'u_42', properties: { plan: 'pro' })
#   client.features(date_range: 'last_7_days')['features']
require_relative 'product_intelligence/version'
require_relative 'product_intelligence/errors'
require_relative 'product_intelligence/client'
