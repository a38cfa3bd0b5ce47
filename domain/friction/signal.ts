import type { SignalKind, FrictionSignal } from '../contribution/types.js';
import crypto from 'node:crypto';
import type { AnalyticsEvent } from '../event.js';

export function signal(
  sessionId: string,
  kind: SignalKind,
  events: AnalyticsEvent[],
  fields: Pick<FrictionSignal, 'page' | 'element' | 'timings_ms'>,
): FrictionSignal {
  const first = events[0]!;
  return {
    signal_id: `f_${crypto.createHash('sha256').update(`${sessionId}\u0000${kind}\u0000${first.message_id}`).digest('hex').slice(0, 24)}`,
    kind,
    at: first.timestamp,
    count: events.length,
    message_ids: events.map((e) => e.message_id),
    ...fields,
  };
}

/** The page each event happened on: its own `page`, else the last page viewed before it in the session. */
export function pagesOf(
  events: AnalyticsEvent[],
  pageOf: (e: AnalyticsEvent) => string | undefined,
): (string | null)[] {
  let current: string | null = null;
  return events.map((e) => {
    current = pageOf(e) ?? current;
    return current;
  });
}

/** Page views with consecutive repeats of one page merged (a reload is not navigation). */
export function navigation(
  events: AnalyticsEvent[],
  isPageView: (e: AnalyticsEvent) => boolean,
  pageOf: (e: AnalyticsEvent) => string | undefined,
): { page: string; event: AnalyticsEvent }[] {
  const out: { page: string; event: AnalyticsEvent }[] = [];
  for (const e of events) {
    const page = pageOf(e);
    if (!isPageView(e) || page === undefined) continue;
    if (out.at(-1)?.page !== page) out.push({ page, event: e });
  }
  return out;
}
