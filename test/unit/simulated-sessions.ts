import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { type Session, splitSessions } from '../../domain/session.js';
import type { Simulation } from '../../scripts/simulate/generator.js';

/** A simulation's events as the analytics cores see them, split into sessions by the default rules. */
export function sessionsOf(simulation: Simulation): Session[] {
  const byUser = new Map<string, AnalyticsEvent[]>();
  simulation.events.forEach((e, offset) => {
    const list = byUser.get(e.user_id) ?? [];
    const timestamp = Date.parse(e.timestamp!);
    list.push({
      ...e,
      message_id: e.message_id!,
      timestamp,
      received_at: timestamp,
      offset,
      properties: e.properties!,
    });
    byUser.set(e.user_id, list);
  });
  const { gapMs, maxMs } = DEFAULT_ANALYTICS.session;
  return [...byUser.values()].flatMap((events) => splitSessions(events, gapMs, maxMs));
}
