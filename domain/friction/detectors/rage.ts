import type { FrictionSignal } from '../../contribution/types.js';
import { type AnalyticsEvent, isClick, prop } from '../../event.js';
import type { AnalyticsConfig } from '../../analytics-config.js';
import { signal } from '../signal.js';

/**
 * Rage clicks: ≥ minClicks clicks on one element, each ≤ maxIntervalMs after the previous and,
 * when both carry coordinates, ≤ maxDistancePx from it. One episode per burst, however long;
 * other events between the clicks do not break a burst. Clicks on text are selection, not rage.
 */
export function detectRageClicks(
  sessionId: string,
  events: AnalyticsEvent[],
  pages: (string | null)[],
  config: AnalyticsConfig['rage'],
): FrictionSignal[] {
  const out: FrictionSignal[] = [];
  let burst: { event: AnalyticsEvent; page: string | null }[] = [];
  const flush = () => {
    const first = burst[0];
    if (first && burst.length >= config.minClicks) {
      const timings = burst.slice(1).map((c, i) => c.event.timestamp - burst[i]!.event.timestamp);
      out.push(
        signal(
          sessionId,
          'rage_click',
          burst.map((c) => c.event),
          { page: first.page, element: prop.element(first.event) ?? null, timings_ms: timings },
        ),
      );
    }
    burst = [];
  };
  events.forEach((event, i) => {
    if (!isClick(event)) return;
    const element = prop.element(event);
    if (element === undefined || config.selectionTypes.includes(prop.elementType(event) ?? '')) {
      flush();
      return;
    }
    const last = burst.at(-1)?.event;
    if (
      last &&
      !(
        prop.element(last) === element &&
        event.timestamp - last.timestamp <= config.maxIntervalMs &&
        near(last, event, config.maxDistancePx)
      )
    ) {
      flush();
    }
    burst.push({ event, page: pages[i] ?? null });
  });
  flush();
  return out;
}

function near(a: AnalyticsEvent, b: AnalyticsEvent, maxPx: number): boolean {
  const [ax, ay, bx, by] = [prop.x(a), prop.y(a), prop.x(b), prop.y(b)];
  if (ax === undefined || ay === undefined || bx === undefined || by === undefined) return true;
  return Math.hypot(ax - bx, ay - by) <= maxPx;
}
