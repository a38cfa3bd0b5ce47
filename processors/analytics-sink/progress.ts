import { setOffset, storedOffsets } from '../../store/processor-offsets.js';
import type { Pool } from '../../lib/db.js';
import type { Admin } from '../../lib/kafka/client.js';
import { groupId, topicName } from '../../lib/kafka/topics.js';
import { type Offsets, remaining } from '../runtime/replay-plan.js';
import { SESSIONIZE, sessionizeProgress } from '../sessionize/runner.js';

/** Per partition, the end (high watermark) of a topic now. */
export const topicEnds = async (admin: Admin, topic: string): Promise<Offsets> =>
  new Map((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, Number(o.high)]));

/** The end of pi.events.v1 now: what `analyticsLag` measures against. */
export const eventsEnd = (admin: Admin): Promise<Offsets> => topicEnds(admin, topicName('events'));

/** Events of pi.events.v1 below `target` (default: its end now) the sessionizer has not read. */
export const sessionizeLag = async (admin: Admin, target?: Offsets): Promise<number> =>
  remaining(target ?? (await eventsEnd(admin)), await sessionizeProgress(admin));

/**
 * How far the analytics chain is from having applied every event below `target` (default: the
 * end of pi.events.v1 now): events the sessionizer has not read, plus chains in pi.sessions.v1 the
 * analytics sink has not applied. Read in that order, so 0 means every chain of those events is in
 * the tables.
 */
export async function analyticsLag(admin: Admin, db: Pool, target?: Offsets): Promise<number> {
  const events = await sessionizeLag(admin, target);
  if (events > 0) return events;
  const sessions = topicName('sessions');
  const rows = await storedOffsets(db, 'analytics', sessions);
  return remaining(await topicEnds(admin, sessions), new Map(rows.map((r) => [r.partition, r.next_offset])));
}

/**
 * Makes the analytics chain start over from offset 0 of pi.events.v1: the sessionizer's group is
 * deleted and the sink skips the chains written so far (the sessionizer writes them again).
 */
export async function restartAnalyticsChain(admin: Admin, db: Pool): Promise<void> {
  await admin.deleteGroups([groupId(SESSIONIZE)]).catch((err: unknown) => {
    // No group yet: nothing to forget. Any other failure must stop the replay, whose tables are
    // emptied: a sessionizer resuming from its old offsets would rebuild them without the history.
    const groups = (err as { groups?: { error?: { type?: string } }[] }).groups;
    if (!groups?.every((g) => g.error?.type === 'GROUP_ID_NOT_FOUND')) throw err;
  });
  const sessions = topicName('sessions');
  for (const { partition, high } of await admin.fetchTopicOffsets(sessions)) {
    await setOffset(db, 'analytics', sessions, partition, Number(high));
  }
}
