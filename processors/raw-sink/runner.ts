import type { EventOnWire } from '../../domain/sealed-user.js';
import { openEvents } from '../../store/user-keys.js';
import type { PostgresSink } from '../runtime/postgres-sink.js';
import { guardUsersAgainstErasure } from '../../store/locks.js';
import { rebuiltBy } from '../../store/tables.js';
import { rawRowsOf } from './core.js';
import { insertRawEvents } from '../../store/raw-events.js';

/**
 * pi.events.v1 → raw_events; a message id already stored in the project is a duplicate and is
 * ignored.
 */
export const rawSink: PostgresSink<EventOnWire> = {
  name: 'raw-sink',
  topic: 'events',
  tables: rebuiltBy('raw-sink'),
  chunk: 1000,
  async write(client, messages) {
    const sent = messages.flatMap((m) => (m.value ? [{ ...m, value: m.value }] : []));
    const opened = await openEvents(
      client,
      sent.map((m) => m.value),
    );
    const { rows, refused } = rawRowsOf(sent, opened);
    if (rows.length === 0) return { refused };
    // Only an erasure of the batch's users is waited for (other sinks' user locks are not).
    await guardUsersAgainstErasure(
      client,
      rows.map((r) => ({ projectId: r.project_id, userId: r.user_id })),
    );
    // Events of a user erased after they were received never come back (live or replayed).
    await insertRawEvents(client, rows);
    return { refused };
  },
};
