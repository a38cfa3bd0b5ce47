import type { SessionFeatureFacts, DiscoveryMethod } from '../contribution/types.js';
import { type AnalyticsEvent, prop } from '../event.js';
import type { AnalyticsConfig } from '../analytics-config.js';
import { contextOf } from '../context/occurrences.js';
import type { Session } from '../session.js';

export const IMPRESSION = 'feature_impression';
export const USE = 'feature_used';

const RECOMMENDATION = new Set(['recommendation', 'hint', 'tooltip', 'walkthrough', 'intervention', 'nudge']);
const DOCUMENTATION = new Set(['documentation', 'docs', 'help', 'help_center']);
const POWER = new Set(['search', 'shortcut', 'keyboard_shortcut', 'command_palette', 'api']);

/**
 * How a use came about: the client's `source` when it names one, otherwise power-user
 * exploration when the user had already used `powerUserFeatures` other features, else browsing.
 */
export function classifyDiscovery(
  use: AnalyticsEvent,
  featuresUsedBefore: number,
  powerUserFeatures = 5,
): DiscoveryMethod {
  const source = typeof use.properties.source === 'string' ? use.properties.source.toLowerCase() : '';
  if (RECOMMENDATION.has(source)) return 'recommendation';
  if (DOCUMENTATION.has(source)) return 'documentation';
  if (POWER.has(source) || featuresUsedBefore >= powerUserFeatures) return 'power_user_exploration';
  return 'browsing';
}

/** A feature is visible in a session when it was shown (impression) or used there. */
export function sessionFeatures(session: Session, _config: AnalyticsConfig): SessionFeatureFacts[] {
  const facts = new Map<string, SessionFeatureFacts>();
  const usedSoFar = new Set<string>();
  for (const event of session.events) {
    if (event.event !== IMPRESSION && event.event !== USE) continue;
    const feature = prop.feature(event);
    if (feature === undefined) continue;
    let f = facts.get(feature);
    if (!f) {
      f = {
        feature,
        impressions: 0,
        uses: 0,
        empty_state_impressions: 0,
        data_volume_sum: 0,
        data_volume_n: 0,
        first_seen_at: event.timestamp,
        first_used_at: null,
        first_use_source: null,
      };
      facts.set(feature, f);
    }
    const context = prop.uiContext(event);
    if (event.event === IMPRESSION) {
      f.impressions++;
      if (contextOf(event) === 'empty_state') f.empty_state_impressions++;
    } else {
      f.uses++;
      if (typeof context.data_volume === 'number' && Number.isFinite(context.data_volume)) {
        f.data_volume_sum += context.data_volume;
        f.data_volume_n++;
      }
      if (f.first_used_at === null) {
        f.first_used_at = event.timestamp;
        f.first_use_source = classifyDiscovery(event, [...usedSoFar].filter((u) => u !== feature).length);
      }
      usedSoFar.add(feature);
    }
  }
  return [...facts.values()].sort((a, b) => a.feature.localeCompare(b.feature));
}
