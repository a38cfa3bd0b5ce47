import type { FrictionSignal } from '../../contribution/types.js';
import type { AnalyticsEvent } from '../../event.js';
import type { AnalyticsConfig } from '../../analytics-config.js';
import { signal } from '../signal.js';

/**
 * Backtracking (Clarity's "quick back"): A → B → A with the return to A at most maxMs after
 * leaving A. Attributed to B, the page that did not hold the user; timing: time spent on B.
 */
export function detectBacktracks(
  sessionId: string,
  views: { page: string; event: AnalyticsEvent }[],
  config: AnalyticsConfig['backtrack'],
): FrictionSignal[] {
  const out: FrictionSignal[] = [];
  for (let i = 2; i < views.length; i++) {
    const [before, left, back] = [views[i - 2]!, views[i - 1]!, views[i]!];
    const dwell = back.event.timestamp - left.event.timestamp;
    if (back.page === before.page && dwell <= config.maxMs) {
      out.push(
        signal(sessionId, 'backtrack', [left.event, back.event], {
          page: left.page,
          element: null,
          timings_ms: [dwell],
        }),
      );
    }
  }
  return out;
}
