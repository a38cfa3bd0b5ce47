# frozen_string_literal: true

require_relative 'lib/product_intelligence/version'

Gem::Specification.new do |spec|
  spec.name = 'product_intelligence'
  spec.version = ProductIntelligence::VERSION
  spec.summary = 'Client of the product-intelligence service'
  spec.description = 'Event tracking with a bounded background queue (batches, retries with backoff, ' \
                     'flush at exit), user identify/update/delete, and typed helpers for the analytics ' \
                     'and administration endpoints. Standard library only.'
  spec.authors = ['Product Intelligence']
  spec.license = 'Nonstandard'
  spec.required_ruby_version = '>= 3.0'
  spec.files = Dir['lib/**/*.rb'] + ['README.md']
  spec.require_paths = ['lib']
  spec.metadata['rubygems_mfa_required'] = 'true'
end
