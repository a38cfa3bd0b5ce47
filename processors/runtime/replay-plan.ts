import { UsageError } from '../../lib/cli.js';

/**
 * The decisions of `scripts/replay.ts` (pure): the instant of `--from`, where each partition
 * restarts, which stored sessions a reset drops, and how far a replay has got.
 */

/** `YYYY-MM-DD` (UTC midnight) or an ISO 8601 instant with its offset: a bare local time is ambiguous. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The value of `--from <instant>` as epoch ms; undefined without the option. */
export function parseFrom(text: string | undefined, now = Date.now()): number | undefined {
  if (text === undefined) return undefined;
  const ms = INSTANT.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new UsageError(
      `--from: expected a date (2026-11-01) or an instant with its offset (2026-11-01T00:00:00Z), got '${text}'`,
    );
  }
  if (ms > now) throw new UsageError(`--from: ${new Date(ms).toISOString()} is in the future`);
  return ms;
}

/** partition → offset */
export type Offsets = Map<number, number>;

/**
 * The next offset each partition of a processor restarts at for a replay from D. `byTime` is the
 * first offset whose record timestamp is ≥ D (the end of the partition when none is): every
 * message received at or after D lies at or beyond it. `earliestStored` is the lowest offset of a
 * row received ≥ D that the raw-sink stored (raw_events keeps partition and offset): when a
 * producer stamped a record earlier than its received_at, the restart moves down to it, so no row
 * that is removed is left behind. Partitions the processor has not got as far are left alone, and
 * so are those it never read (absent: it starts them at 0).
 */
export function restartOffsets(stored: Offsets, byTime: Offsets, earliestStored: Offsets): Offsets {
  const restart: Offsets = new Map();
  for (const [partition, next] of stored) {
    const cut = Math.min(byTime.get(partition) ?? 0, earliestStored.get(partition) ?? Infinity);
    if (cut < next) restart.set(partition, cut);
  }
  return restart;
}

export interface StoredSpan {
  session_id: string;
  started: number;
  ended: number;
}

/**
 * The sessions of one user that hold any of `times` (occurrence times of the events being
 * removed). A time on the shared edge of two sessions cut at the length limit picks both:
 * dropping a session too many only re-splits its events again.
 */
export function sessionsHolding<S extends StoredSpan>(sessions: S[], times: number[]): S[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sessions.filter((s) => {
    // first time ≥ started, by binary search
    let [lo, hi] = [0, sorted.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < s.started) lo = mid + 1;
      else hi = mid;
    }
    return lo < sorted.length && sorted[lo]! <= s.ended;
  });
}

/**
 * How many messages are left before every partition reaches its end; a partition without a stored
 * offset counts from 0, as the sink starts it there.
 */
export function remaining(ends: Offsets, stored: Offsets): number {
  let left = 0;
  for (const [partition, end] of ends) left += Math.max(0, end - (stored.get(partition) ?? 0));
  return left;
}
