import { type TrackedEventRecord, firstOccurrences } from '../../domain/tracked-event.js';
import type { Refusal } from '../runtime/postgres-sink.js';

/** One row of raw_events, in column order. */
import type { RawEventRow } from '../../store/raw-events.js';

export type { RawEventRow };

export function toRawEventRow(record: TrackedEventRecord, partition: number, offset: number): RawEventRow {
  return {
    project_id: record.project_id,
    message_id: record.message_id,
    user_id: record.user_id,
    event: record.event,
    properties: record.properties,
    occurred_at: new Date(record.timestamp).toISOString(),
    received_at: new Date(record.received_at).toISOString(),
    kafka_partition: partition,
    kafka_offset: offset,
  };
}

/**
 * The rows of the messages as opened (`opened[i]` of `messages[i]`): an erased user's event (their
 * key is gone: undefined) is skipped, one that cannot be opened (an Error: not sealed for its user,
 * or of a project id that is no uuid) refused as a dead letter, a
 * message id repeated within the batch stored once.
 */
export function rawRowsOf(
  messages: { partition: number; offset: number }[],
  opened: (TrackedEventRecord | Error | undefined)[],
): { rows: RawEventRow[]; refused: Refusal[] } {
  const refused: Refusal[] = [];
  const rows = messages.flatMap((m, i) => {
    const record = opened[i];
    if (record instanceof Error) {
      refused.push({ offset: m.offset, error: record.message });
      return [];
    }
    return record ? [toRawEventRow(record, m.partition, m.offset)] : [];
  });
  return { rows: firstOccurrences(rows), refused };
}
