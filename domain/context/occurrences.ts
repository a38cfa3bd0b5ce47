import type { FrictionSignal, ContextKind } from '../contribution/types.js';
import { type AnalyticsEvent, prop } from '../event.js';
import type { AnalyticsConfig } from '../analytics-config.js';
import type { Session } from '../session.js';

/** One occurrence of a named event, judged in its UI context. */
export interface EventOccurrence {
  event: string;
  message_id: string;
  context: ContextKind;
  success: boolean;
  /** kinds of friction that hit the occurrence's page within the success window */
  issues: FrictionSignal['kind'][];
}

/**
 * The UI context of an occurrence: empty_state when ui_context.empty_state is true or
 * ui_context.data_present is false; with_data_present otherwise.
 */
export function contextOf(event: AnalyticsEvent): ContextKind {
  const c = prop.uiContext(event);
  return c.empty_state === true || c.data_present === false ? 'empty_state' : 'with_data_present';
}

/**
 * Success of an occurrence: the client's `success` flag when sent; otherwise success unless a
 * friction signal (dead or rage click, loop, backtrack) hits it: one it is part of (a dead click,
 * a click of a rage burst, a view of a loop), or one starting on the same page within
 * contextSuccessWindowMs after it. Idle time alone is not a failure. A click that was itself dead
 * is a failed click: the event context of `click` agrees with the friction points.
 */
export function sessionOccurrences(
  session: Session,
  signals: FrictionSignal[],
  config: AnalyticsConfig,
): EventOccurrence[] {
  const pages: (string | undefined)[] = [];
  let page: string | undefined;
  for (const e of session.events) pages.push((page = prop.page(e) ?? page));
  return session.events.map((event, i) => {
    const hits = signals.filter(
      (s) =>
        s.kind !== 'idle' &&
        (s.message_ids.includes(event.message_id) ||
          (s.page === (pages[i] ?? null) &&
            s.at >= event.timestamp &&
            s.at <= event.timestamp + config.contextSuccessWindowMs)),
    );
    const flag = event.properties.success;
    return {
      event: event.event,
      message_id: event.message_id,
      context: contextOf(event),
      success: typeof flag === 'boolean' ? flag : hits.length === 0,
      issues: [...new Set(hits.map((h) => h.kind))].sort(),
    };
  });
}
