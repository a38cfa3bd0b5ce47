# frozen_string_literal: true

module ProductIntelligence
  VERSION = '0.1.0'
end
