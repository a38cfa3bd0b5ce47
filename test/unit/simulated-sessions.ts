import { DEFAULT_ANALYTICS, analyticsConfig } from '../../domain/analytics-config.js';
import { sessionContribution } from '../../domain/contribution/session.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { type Session, splitSessions } from '../../domain/session.js';
import { type Simulation, simulate } from '../../scripts/simulate/generator.js';

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

/** The sessions of 40 simulated users over a day, with five of each kind of friction planted. */
export const frictionSessions = (seed: number): Session[] =>
  sessionsOf(
    simulate({
      seed,
      users: 40,
      sessions: 2,
      start: Date.UTC(2026, 10, 2),
      spanMs: 86_400_000,
      planted: { rage: 5, dead: 5, loops: 5, backtracks: 5, idle: 5 },
    }),
  );

const config = analyticsConfig();

/** The contribution of the session's first `n` events, by the default rules. */
export const prefixContribution = (s: Session, n: number): SessionContribution =>
  sessionContribution({ ...s, events: s.events.slice(0, n), ended_at: s.events[n - 1]!.timestamp }, config);

/** A contribution as stored: through JSON, as Postgres gives it back. */
export const asStored = (c: SessionContribution) => JSON.parse(JSON.stringify(c)) as SessionContribution;
