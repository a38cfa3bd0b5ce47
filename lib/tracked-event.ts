import crypto from 'node:crypto';

/** A tracked event as the ingest API accepts it (schemas/tracked-event.json). */
export interface TrackedEventInput {
  user_id: string;
  event: string;
  properties?: Record<string, unknown>;
  timestamp?: string;
  message_id?: string;
}

/** The value of pi.events.v1 (schemas/avro/pi.events.v1.avsc). */
export interface TrackedEventRecord {
  project_id: string;
  message_id: string;
  user_id: string;
  event: string;
  /** epoch milliseconds */
  timestamp: number;
  received_at: number;
  /** JSON object text */
  properties: string;
}

/** Events may be sent late (offline clients) but not from before 2000 or more than a day ahead. */
export const EARLIEST_EVENT_MS = Date.UTC(2000, 0, 1);
export const MAX_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

export type TimestampProblem = 'out_of_range' | undefined;

export function checkTimestamp(timestamp: string | undefined, receivedAt: number): TimestampProblem {
  if (timestamp === undefined) return undefined;
  const ms = Date.parse(timestamp);
  // NaN for what the format accepts but a Date cannot hold (a leap second, 23:59:60).
  return Number.isNaN(ms) || ms < EARLIEST_EVENT_MS || ms > receivedAt + MAX_CLOCK_SKEW_MS ? 'out_of_range' : undefined;
}

export function toRecord(projectId: string, input: TrackedEventInput, receivedAt: number): TrackedEventRecord {
  return {
    project_id: projectId,
    message_id: input.message_id ?? crypto.randomUUID(),
    user_id: input.user_id,
    event: input.event,
    timestamp: input.timestamp === undefined ? receivedAt : Date.parse(input.timestamp),
    received_at: receivedAt,
    properties: JSON.stringify(input.properties ?? {}),
  };
}

/**
 * The first record of each message id of a project, in the given (offset) order. A client retry
 * can put a message and its repeat in one sink batch; inserting both in one statement would let
 * the query plan (e.g. a hashed anti-join) decide which one stays, so the repeat is dropped first.
 */
export function firstOccurrences<T extends { project_id: string; message_id: string }>(records: T[]): T[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = `${r.project_id}\u0000${r.message_id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
