import type { FrictionSignal } from '../../contribution/types.js';
import type { AnalyticsEvent } from '../../event.js';
import type { AnalyticsConfig } from '../../analytics-config.js';
import { signal } from '../signal.js';

/** Idle time: a gap longer than minGapMs between consecutive events of a session, on the page of the earlier one. */
export function detectIdle(
  sessionId: string,
  events: AnalyticsEvent[],
  pages: (string | null)[],
  config: AnalyticsConfig['idle'],
): FrictionSignal[] {
  const out: FrictionSignal[] = [];
  for (let i = 1; i < events.length; i++) {
    const gap = events[i]!.timestamp - events[i - 1]!.timestamp;
    if (gap > config.minGapMs) {
      out.push(
        signal(sessionId, 'idle', [events[i - 1]!], { page: pages[i - 1] ?? null, element: null, timings_ms: [gap] }),
      );
    }
  }
  return out;
}
