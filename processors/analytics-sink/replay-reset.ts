import { ContributionDeltas } from '../../store/contributions.js';
import { type Pool, inTransaction } from '../../lib/db.js';
import { keepingAnswerTables } from '../../store/answer-tables.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { lockUsers } from '../../store/locks.js';
import { receivedTimesSince, takeEventsForReplay, usersReceivedSince } from '../../store/session-events.js';
import { deleteSessions, sessionsAroundReceived, eventsWithin, storedContributions } from '../../store/sessions.js';
import { projectAnalyticsConfigs } from '../../store/project-config.js';
import { refreshUserMetrics } from '../../store/user-metrics.js';
import type { SinkMessage } from '../runtime/postgres-sink.js';
import { type StoredSpan, sessionsHolding } from '../runtime/replay-plan.js';
import { applyEvents } from './runner.js';

/** Users per transaction: each holds one advisory lock per user until it commits. */
const USERS_PER_TRANSACTION = 200;

export interface AnalyticsReset {
  users: number;
  sessions: number;
  events: number;
}

/**
 * Takes out of the analytics tables what the events received at or after `from` contributed, so
 * that re-reading them gives what a full replay gives. Per user: the sessions holding such an
 * event are subtracted from the daily tables and deleted with their signals, the events are
 * deleted, and the user's other events of those sessions are fed through the sink again, which
 * re-splits them (a session of old events only is rebuilt as such). Removing whole sessions leaves
 * the user's other sessions exactly as a split of the remaining events gives them, so the sink's
 * invariant (sessions = split of the stored events, daily tables = sum of sessions) holds after
 * every transaction. The users' user_metrics are summed again from what is left; their
 * feature_users are refreshed when their removed events come back, as during any replay.
 */
export async function resetAnalyticsFrom(db: Pool, from: Date): Promise<AnalyticsReset> {
  const users = await usersReceivedSince(db, from);
  const done: AnalyticsReset = { users: users.length, sessions: 0, events: 0 };
  for (let i = 0; i < users.length; i += USERS_PER_TRANSACTION) {
    const chunk = users.slice(i, i + USERS_PER_TRANSACTION);
    const counts = await inTransaction(db, async (client) => {
      await lockUsers(
        client,
        chunk.map((u) => ({ projectId: u.project_id, userId: u.user_id })),
      );
      const chunkUsers = chunk.map((u) => ({ projectId: u.project_id, userId: u.user_id }));
      // Read under the locks: an erasure that committed meanwhile left nothing to take out.
      const removed = await receivedTimesSince(client, chunkUsers, from);
      const candidates = await sessionsAroundReceived(client, chunkUsers, from);
      const timesOf = new Map(removed.map((r) => [`${r.project_id}\u0000${r.user_id}`, r.times.map(Number)]));
      const byUser = new Map<string, ((typeof candidates)[number] & StoredSpan)[]>();
      for (const c of candidates) {
        const key = `${c.project_id}\u0000${c.user_id}`;
        let list = byUser.get(key);
        if (!list) byUser.set(key, (list = []));
        list.push({ ...c, started: Number(c.started), ended: Number(c.ended) });
      }
      const dropped = [...byUser].flatMap(([key, sessions]) => sessionsHolding(sessions, timesOf.get(key) ?? []));

      // The removed events, and the other events of the dropped sessions, which go back through the sink.
      const events = await takeEventsForReplay(
        client,
        chunkUsers,
        from,
        dropped.map((s) => ({ projectId: s.project_id, userId: s.user_id, lo: s.started, hi: s.ended })),
      );
      // The dropped sessions' contributions, computed again from their events (all deleted above),
      // come out of the daily tables.
      const eventsOfUser = new Map<string, AnalyticsEvent[]>();
      for (const e of events) {
        const key = `${e.project_id}\u0000${e.user_id}`;
        const list = eventsOfUser.get(key) ?? [];
        list.push({
          message_id: e.message_id,
          user_id: e.user_id,
          event: e.event,
          timestamp: Number(e.ts),
          received_at: Number(e.rx),
          offset: Number(e.kafka_offset),
          properties: JSON.parse(e.properties) as Record<string, unknown>,
        });
        eventsOfUser.set(key, list);
      }
      const contributions = await storedContributions(client, dropped, (d) =>
        eventsWithin(eventsOfUser.get(`${d.project_id}\u0000${d.user_id}`) ?? [])(d),
      );
      const deltas = new ContributionDeltas();
      dropped.forEach((d, i) => deltas.add(d.project_id, contributions[i]!, -1));
      await deleteSessions(
        client,
        dropped.map((d) => ({ projectId: d.project_id, sessionId: d.session_id })),
      );
      await keepingAnswerTables(
        client,
        chunk.map((u) => ({ projectId: u.project_id, userId: u.user_id })),
        () => deltas.apply(client),
      );
      // Kept events in offset order, as the sink would have read them; their partition is not stored
      // (session_events keeps the offset only) and the analytics sink does not use it.
      const again: SinkMessage<TrackedEventRecord>[] = events
        .filter((e) => e.again)
        .sort((a, b) => Number(a.kafka_offset) - Number(b.kafka_offset))
        .map((e) => ({
          partition: -1,
          offset: Number(e.kafka_offset),
          key: null,
          value: {
            project_id: e.project_id,
            message_id: e.message_id,
            user_id: e.user_id,
            event: e.event,
            timestamp: Number(e.ts),
            received_at: Number(e.rx),
            properties: e.properties,
          },
        }));
      // The users' metrics summed again from what is left: the sink moves them by deltas only, and
      // the sessions taken out above went without theirs.
      const users = chunk.map((u) => ({ projectId: u.project_id, userId: u.user_id }));
      await refreshUserMetrics(
        client,
        users,
        await projectAnalyticsConfigs(client, [...new Set(users.map((u) => u.projectId))]),
      );
      if (again.length > 0) await applyEvents(client, again);
      return { sessions: dropped.length, events: events.length - again.length };
    });
    done.sessions += counts.sessions;
    done.events += counts.events;
  }
  return done;
}
