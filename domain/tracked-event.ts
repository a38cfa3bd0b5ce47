import crypto from 'node:crypto';
import { someInJson } from './json-walk.js';

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

/**
 * The message ids of events sent with a browser key (a key anyone may read in a page) start with
 * this: they never take a server's ids first, and the service signs no delivery for them
 * (docs/adr/0086-what-a-browser-key-may-make-the-service-say.md).
 */
export const BROWSER_MESSAGE_PREFIX = 'b:';

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

/** The record of an event as received; `messageIdPrefix` marks the ids of a browser key's events. */
export function toRecord(
  projectId: string,
  input: TrackedEventInput,
  receivedAt: number,
  messageIdPrefix = '',
): TrackedEventRecord {
  return {
    project_id: projectId,
    message_id: `${messageIdPrefix}${input.message_id ?? crypto.randomUUID()}`,
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

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Postgres text holds no U+0000, and a btree entry (an id in a key) no more than ~2.7 kB. */
const MAX_KEY_BYTES = 2000;
/** 9999-12-31T23:59:59.999Z: beyond it Postgres has no timestamp. */
const LATEST_TIMESTAMP_MS = 253_402_300_799_999;

/**
 * Why Postgres would refuse a record of pi.events.v1 as an analytics event, or undefined. The
 * API never writes such a record; an older or foreign producer can, and the sessionizer sets it
 * aside (a dead letter) rather than put it in a chain, which the sink would then refuse whole.
 */
export function unstorable(record: TrackedEventRecord): string | undefined {
  if (!UUID.test(record.project_id)) return 'project_id is not a uuid';
  for (const field of ['user_id', 'message_id', 'event'] as const) {
    const text = record[field];
    if (text.includes('\u0000')) return `${field} holds U+0000`;
    if (Buffer.byteLength(text) > MAX_KEY_BYTES) return `${field} is longer than ${MAX_KEY_BYTES} bytes`;
  }
  for (const field of ['timestamp', 'received_at'] as const) {
    const ms = Number(record[field]);
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > LATEST_TIMESTAMP_MS) return `${field} is out of range`;
  }
  let properties: unknown;
  try {
    properties = JSON.parse(record.properties);
  } catch {
    return 'properties is not JSON';
  }
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) {
    return 'properties is not a JSON object';
  }
  // jsonb refuses U+0000 in any string, key or value.
  return someInJson(properties, (text) => text.includes('\u0000')) ? 'properties hold U+0000' : undefined;
}
