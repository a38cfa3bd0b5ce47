import assert from 'node:assert/strict';
import { inTransaction } from '../../lib/db.js';
import type { TrackedEventRecord } from '../../lib/tracked-event.js';
import { analyticsSink } from '../../processors/analytics/sink.js';
import { rawSink } from '../../processors/raw-sink/sink.js';
import { closeServices, newProject, services } from './helpers.js';

/**
 * A message and its repeat (a client retry) in one batch: the first received is kept, whatever
 * plan Postgres picks for the insert. Many rows in the batch make a hashed plan likely.
 */
describe('sinks keep the first of repeated message ids within a batch', () => {
  after(() => closeServices());

  it('stores the earliest received_at and offset for raw_events and session_events', async () => {
    const { projectId } = await newProject();
    const t = Date.UTC(2026, 10, 20, 12);
    const record = (i: number, receivedAt: number): TrackedEventRecord => ({
      project_id: projectId,
      message_id: `m-${i}`,
      user_id: `u-${i % 7}`,
      event: 'page_view',
      timestamp: t + i * 1000,
      received_at: receivedAt,
      properties: JSON.stringify({ page: `/p${i % 3}` }),
    });
    const originals = Array.from({ length: 400 }, (_, i) => record(i, t + 10_000));
    const repeats = originals.filter((_, i) => i % 4 === 0).map((r) => ({ ...r, received_at: t + 99_000 }));
    const messages = [...originals, ...repeats].map((value, offset) => ({ partition: 0, offset, key: null, value }));
    for (const sink of [rawSink, analyticsSink]) {
      await inTransaction(services().db, (client) => sink.write(client, messages));
    }
    for (const table of ['raw_events', 'session_events']) {
      const { rows } = await services().db.query<{ n: number; late: number; max_offset: number }>(
        `select count(*)::int as n, count(*) filter (where received_at > to_timestamp($2 / 1000.0))::int as late,
                max(kafka_offset)::int as max_offset
         from ${table} where project_id = $1`,
        [projectId, t + 10_000],
      );
      assert.deepEqual(rows[0], { n: 400, late: 0, max_offset: 399 }, table);
    }
  });
});
