import type { SessionChain } from './core.js';

/** The value of pi.sessions.v1 (schemas/avro/pi.sessions.v1.avsc). */
export interface SessionChainRecord {
  project_id: string;
  user_id: string;
  gap_ms: number;
  max_ms: number;
  complete: boolean;
  sessions: { session_id: string; events: SessionEventRecord[] }[];
}

export interface SessionEventRecord {
  message_id: string;
  event: string;
  timestamp: number;
  received_at: number;
  offset: number;
  /** JSON object text */
  properties: string;
}

const eventRecord = (e: SessionChain['sessions'][number]['events'][number]): SessionEventRecord => ({
  message_id: e.message_id,
  event: e.event,
  timestamp: e.timestamp,
  received_at: e.received_at,
  offset: e.offset,
  properties: JSON.stringify(e.properties),
});

export function chainRecord(chain: SessionChain): SessionChainRecord {
  return {
    project_id: chain.projectId,
    user_id: chain.userId,
    gap_ms: chain.rules.gapMs,
    max_ms: chain.rules.maxMs,
    complete: true,
    sessions: chain.sessions.map((s) => ({ session_id: s.session_id, events: s.events.map(eventRecord) })),
  };
}

/**
 * A chain too large for one message, cut down to its events from `newIds` in one entry: the sink
 * splits them with the user's stored events instead of trusting the chain.
 */
export function partialChainRecord(chain: SessionChain, newIds: Set<string>): SessionChainRecord {
  const events = chain.sessions.flatMap((s) => s.events).filter((e) => newIds.has(e.message_id));
  return {
    ...chainRecord(chain),
    complete: false,
    sessions: [{ session_id: chain.sessions[0]!.session_id, events: events.map(eventRecord) }],
  };
}
