import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import { sessionContribution } from '../../domain/contribution/session.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { type Session, splitSessions } from '../../domain/session.js';
import type { PoolClient } from '../../lib/db.js';
import { type StoredSessionRow, eventsWithin, sessionsInWindows, storedContributions } from '../../store/sessions.js';
import { eventsInWindows } from '../../store/session-events.js';
import type { Touched } from './stored-events.js';

export interface SessionChange {
  t: Touched;
  old: StoredSession[];
  fresh: FreshSession[];
  /** The user had no stored session before: nothing of theirs was in any table. */
  newUser?: true;
}

/** A session as its stored events now form it, and when its latest event was received. */
export interface FreshSession {
  session: Session;
  c: SessionContribution;
  receivedAt: number;
}

export interface StoredSession {
  session_id: string;
  contribution: SessionContribution;
}

export const freshSession = (s: Session, config: AnalyticsConfig): FreshSession => ({
  session: s,
  c: sessionContribution(s, config),
  receivedAt: s.events.reduce((latest, e) => Math.max(latest, e.received_at), 0),
});

/** A touched user's time window: stored sessions within it are split again with the new events. */
interface Window {
  t: Touched;
  gap: number;
  lo: number;
  hi: number;
  old: StoredSessionRow[];
}

/**
 * Re-splits the touched users' sessions around their new events: each user's stored sessions
 * (`old`, their contributions computed again from the events stored before: `storedNow` names the
 * events of this transaction, `project NUL message id`) and the sessions their stored events now
 * form (`fresh`). Reads all users of the batch with one statement per step, not per user.
 */
export async function resessionize(
  client: PoolClient,
  users: Touched[],
  configs: Map<string, AnalyticsConfig>,
  storedNow: ReadonlySet<string>,
): Promise<SessionChange[]> {
  const windows: Window[] = users.map((t) => {
    const gap = configs.get(t.projectId)!.session.gapMs;
    return { t, gap, lo: t.min, hi: t.max, old: [] };
  });
  // The stored sessions within a gap of the new events, widened until stable: a session cut at
  // the 24 h limit is followed by its continuation less than a gap later, and a late event that
  // moves the cut must re-split the whole chain.
  let pending = windows;
  while (pending.length > 0) {
    const rows = await sessionsInWindows(
      client,
      pending.map((w) => ({ projectId: w.t.projectId, userId: w.t.userId, lo: w.lo - w.gap, hi: w.hi + w.gap })),
    );
    for (const w of pending) w.old = [];
    for (const { i, ...session } of rows) pending[i - 1]!.old.push(session);
    pending = pending.filter((w) => {
      const wider = Math.min(w.lo, ...w.old.map((s) => s.started));
      const higher = Math.max(w.hi, ...w.old.map((s) => s.ended));
      if (wider === w.lo && higher === w.hi) return false;
      [w.lo, w.hi] = [wider, higher];
      return true;
    });
  }
  const events = await eventsInWindows(
    client,
    windows.map((w) => ({ projectId: w.t.projectId, userId: w.t.userId, lo: w.lo, hi: w.hi })),
  );
  // The events each old session held: its window's, but for those stored in this transaction.
  const storedBefore = new Map<StoredSessionRow, AnalyticsEvent[]>();
  windows.forEach((w, i) => {
    const stored = events[i]!.filter((e) => !storedNow.has(`${w.t.projectId}\u0000${e.message_id}`));
    for (const session of w.old) storedBefore.set(session, stored);
  });
  const sessions = [...storedBefore.keys()];
  const contributions = await storedContributions(
    client,
    sessions,
    (s) => eventsWithin(storedBefore.get(s)!)(s),
    configs,
  );
  const oldOf = new Map(sessions.map((s, i) => [s, contributions[i]!]));
  return windows.map((w, i) => {
    const config = configs.get(w.t.projectId)!;
    const fresh = splitSessions(events[i]!, w.gap, config.session.maxMs).map((s) => freshSession(s, config));
    const old = w.old.map((s) => ({ session_id: s.session_id, contribution: oldOf.get(s)! }));
    return { t: w.t, old, fresh };
  });
}
