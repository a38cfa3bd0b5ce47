import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import { sessionContribution } from '../../domain/contribution/session.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { type Session, splitSessions } from '../../domain/session.js';
import type { PoolClient } from '../../lib/db.js';
import { STORED_SESSION, type StoredSessionRow, eventsWithin, storedContributions } from '../../store/sessions.js';
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
    const { rows } = await client.query<StoredSessionRow & { i: number }>(
      `select u.i, ${STORED_SESSION}
       from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) with ordinality as u(project_id, user_id, lo, hi, i)
       join sessions s on s.project_id = u.project_id and s.user_id = u.user_id
         and s.ended_at > to_timestamp(u.lo / 1000.0) and s.started_at < to_timestamp(u.hi / 1000.0)`,
      [
        pending.map((w) => w.t.projectId),
        pending.map((w) => w.t.userId),
        pending.map((w) => w.lo - w.gap),
        pending.map((w) => w.hi + w.gap),
      ],
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
  const { rows: stored } = await client.query<{
    i: number;
    message_id: string;
    ts: number;
    rx: number;
    kafka_offset: number;
    event: string;
    properties: Record<string, unknown>;
  }>(
    `select u.i, e.message_id, (extract(epoch from e.occurred_at) * 1000)::bigint as ts,
            (extract(epoch from e.received_at) * 1000)::bigint as rx, e.kafka_offset, e.event, e.properties
     from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) with ordinality as u(project_id, user_id, lo, hi, i)
     join session_events e on e.project_id = u.project_id and e.user_id = u.user_id
       and e.occurred_at between to_timestamp(u.lo / 1000.0) and to_timestamp(u.hi / 1000.0)`,
    [
      windows.map((w) => w.t.projectId),
      windows.map((w) => w.t.userId),
      windows.map((w) => w.lo),
      windows.map((w) => w.hi),
    ],
  );
  const events = windows.map((): AnalyticsEvent[] => []);
  for (const e of stored) {
    events[e.i - 1]!.push({
      message_id: e.message_id,
      user_id: windows[e.i - 1]!.t.userId,
      event: e.event,
      timestamp: e.ts,
      received_at: e.rx,
      offset: e.kafka_offset,
      properties: e.properties,
    });
  }
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
