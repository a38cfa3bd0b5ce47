import assert from 'node:assert/strict';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { rawRowsOf } from '../../processors/raw-sink/core.js';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const record = (message_id: string): TrackedEventRecord => ({
  project_id: PROJECT,
  message_id,
  user_id: 'u1',
  event: 'click',
  timestamp: Date.UTC(2026, 10, 2),
  received_at: Date.UTC(2026, 10, 2),
  properties: '{}',
});
const at = (offset: number) => ({ partition: 2, offset });

describe('the raw sink’s rows of a batch (processors/raw-sink/core.ts, rawRowsOf)', () => {
  it('refuses a message that does not open, as a value naming its offset, and keeps the others', () => {
    const { rows, refused } = rawRowsOf(
      [at(10), at(11), at(12)],
      [record('a'), new Error('sealed value does not open: bad tag'), record('c')],
    );
    assert.deepEqual(
      rows.map((r) => [r.message_id, r.kafka_partition, r.kafka_offset]),
      [
        ['a', 2, 10],
        ['c', 2, 12],
      ],
    );
    assert.deepEqual(refused, [{ offset: 11, error: 'sealed value does not open: bad tag' }]);
  });

  it('skips an erased user’s message and stores a message id repeated in the batch once', () => {
    const { rows, refused } = rawRowsOf([at(1), at(2), at(3)], [undefined, record('a'), record('a')]);
    assert.deepEqual(
      rows.map((r) => r.kafka_offset),
      [2],
    );
    assert.deepEqual(refused, []);
  });
});
