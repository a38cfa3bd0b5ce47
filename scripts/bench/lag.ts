import type { Pool } from '../../lib/db.js';
import type { Admin } from '../../lib/kafka/client.js';
import { topicName } from '../../lib/kafka/topics.js';
import { sessionizeLag, topicEnds } from '../../processors/analytics-sink/progress.js';
import { remaining } from '../../processors/runtime/replay-plan.js';

export interface Lag {
  /** events in pi.events.v1 the raw-sink has not stored */
  raw: number;
  /** events the sessionizer has not read */
  sessionize: number;
  /** chains in pi.sessions.v1 the analytics sink has not applied */
  analytics: number;
}

async function sinkLag(admin: Admin, db: Pool, processor: string, topic: string): Promise<number> {
  const { rows } = await db.query<{ partition: number; next_offset: number }>(
    'select partition, next_offset from processor_offsets where processor = $1 and topic = $2',
    [processor, topic],
  );
  return remaining(await topicEnds(admin, topic), new Map(rows.map((r) => [r.partition, Number(r.next_offset)])));
}

/** Consumer lag of each step now (the topics of the current PI_TOPIC_NAMESPACE). */
export async function readLag(admin: Admin, db: Pool): Promise<Lag> {
  const [raw, sessionize, analytics] = await Promise.all([
    sinkLag(admin, db, 'raw-sink', topicName('events')),
    sessionizeLag(admin),
    sinkLag(admin, db, 'analytics', topicName('sessions')),
  ]);
  return { raw, sessionize, analytics };
}

export const totalLag = (lag: Lag) => Math.max(lag.raw, lag.sessionize + lag.analytics);
