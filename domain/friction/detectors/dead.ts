import type { FrictionSignal } from '../../contribution/types.js';
import { type AnalyticsEvent, isClick, prop } from '../../event.js';
import type { AnalyticsConfig } from '../../analytics-config.js';
import { signal } from '../signal.js';

/**
 * Dead clicks: a click the client marks `ui_response: false` (timing: its `ui_response_ms` when
 * sent); without the flag, a click after which no non-click event of the user follows within
 * responseWindowMs (timing: the gap to the next non-click event, or the window at session end).
 * Until the session is final, a flagless click whose window is still open is not judged yet.
 */
export function detectDeadClicks(
  sessionId: string,
  events: AnalyticsEvent[],
  pages: (string | null)[],
  config: AnalyticsConfig['dead'],
  final: boolean,
): FrictionSignal[] {
  const out: FrictionSignal[] = [];
  events.forEach((click, i) => {
    if (!isClick(click)) return;
    const flagged = prop.uiResponse(click);
    let timing: number | undefined;
    if (flagged === false) {
      timing = prop.uiResponseMs(click) ?? config.responseWindowMs;
    } else if (flagged === undefined) {
      const next = events.slice(i + 1).find((e) => !isClick(e));
      if (next) {
        const gap = next.timestamp - click.timestamp;
        if (gap > config.responseWindowMs) timing = gap;
      } else if (final) {
        timing = config.responseWindowMs;
      }
    }
    if (timing !== undefined) {
      out.push(
        signal(sessionId, 'dead_click', [click], {
          page: pages[i] ?? null,
          element: prop.element(click) ?? null,
          timings_ms: [timing],
        }),
      );
    }
  });
  return out;
}
