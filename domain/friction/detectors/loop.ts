import type { FrictionSignal } from '../../contribution/types.js';
import type { AnalyticsEvent } from '../../event.js';
import type { AnalyticsConfig } from '../../analytics-config.js';
import { signal } from '../signal.js';

/**
 * Confusion loops: page views alternating between two pages, A→B→A→B, at least
 * minAlternatingViews long; one episode per maximal run, attributed to the page it started on.
 * `views` has consecutive repeats merged, so neighbours always differ.
 */
export function detectLoops(
  sessionId: string,
  views: { page: string; event: AnalyticsEvent }[],
  config: AnalyticsConfig['loop'],
): FrictionSignal[] {
  const out: FrictionSignal[] = [];
  let start = 0;
  while (start < views.length) {
    let end = start + 1;
    while (end < views.length && (end - start < 2 || views[end]!.page === views[end - 2]!.page)) end++;
    const run = views.slice(start, end);
    if (run.length >= config.minAlternatingViews) {
      out.push(
        signal(
          sessionId,
          'confusion_loop',
          run.map((v) => v.event),
          {
            page: run[0]!.page,
            element: null,
            timings_ms: run.slice(1).map((v, k) => v.event.timestamp - run[k]!.event.timestamp),
          },
        ),
      );
    }
    // The last view of a broken run may begin the next one (A B A B C B C B: two loops).
    start = end - start >= 2 ? end - 1 : end;
  }
  return out;
}
