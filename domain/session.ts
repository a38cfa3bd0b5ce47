import crypto from 'node:crypto';
import { type AnalyticsEvent, type TimedEvent, byTime } from './event.js';

/** A session of analytics events, or of events of another shape (the sessionizer's keep their properties as text). */
export interface Session<E extends TimedEvent = AnalyticsEvent> {
  /** Deterministic: the same events give the same id, live or replayed. */
  session_id: string;
  user_id: string;
  started_at: number;
  ended_at: number;
  events: E[];
}

export function sessionId(userId: string, firstMessageId: string): string {
  return `s_${crypto.createHash('sha256').update(`${userId}\u0000${firstMessageId}`).digest('hex').slice(0, 24)}`;
}

/**
 * Splits one user's events into sessions: sorted by time (ties in arrival order), a new session
 * starts at a gap of `gapMs` or more, or when the session would exceed `maxMs`. A pure function of
 * the set of events, so late and out-of-order events land where they belong.
 */
export function splitSessions<E extends TimedEvent>(events: E[], gapMs: number, maxMs: number): Session<E>[] {
  const sorted = [...events].sort(byTime);
  const sessions: Session<E>[] = [];
  let current: Session<E> | undefined;
  for (const event of sorted) {
    if (!current || event.timestamp - current.ended_at >= gapMs || event.timestamp - current.started_at > maxMs) {
      current = {
        session_id: sessionId(event.user_id, event.message_id),
        user_id: event.user_id,
        started_at: event.timestamp,
        ended_at: event.timestamp,
        events: [],
      };
      sessions.push(current);
    }
    current.events.push(event);
    current.ended_at = event.timestamp;
  }
  return sessions;
}

/** Groups consecutive sessions (in time order) into chains. */
export function chainsOf<E extends TimedEvent>(sessions: Session<E>[], gapMs: number): Session<E>[][] {
  const chains: Session<E>[][] = [];
  for (const session of sessions) {
    const last = chains[chains.length - 1];
    const previous = last?.[last.length - 1];
    if (last && previous && session.started_at - previous.ended_at < gapMs) last.push(session);
    else chains.push([session]);
  }
  return chains;
}
