import assert from 'node:assert/strict';
import type { TrackedEventInput } from '../../domain/tracked-event.js';
import { interleaved } from '../../scripts/bench/traffic.js';

const events = (runs: [string, number][]): TrackedEventInput[] =>
  runs.flatMap(([user, n]) =>
    Array.from({ length: n }, (_, i) => ({ user_id: user, event: 'click', message_id: `${user}-${i}` })),
  );

const ids = (source: Iterable<TrackedEventInput>) => [...source].map((e) => e.message_id ?? '');

describe('the live bench traffic (scripts/bench/traffic.ts)', () => {
  it('sends one event of each concurrent user in turn, in each user’s order', () => {
    const source = events([
      ['a', 3],
      ['b', 1],
      ['c', 2],
    ]);
    assert.deepEqual(ids(interleaved(source[Symbol.iterator](), 2)), ['a-0', 'b-0', 'a-1', 'c-0', 'a-2', 'c-1']);
  });

  it('gives every event exactly once, whatever the number of users at a time', () => {
    const source = events([
      ['a', 5],
      ['b', 2],
      ['c', 7],
      ['d', 1],
    ]);
    for (const concurrent of [1, 3, 10]) {
      const out = ids(interleaved(source[Symbol.iterator](), concurrent));
      assert.deepEqual([...out].sort(), ids(source).sort());
      for (const user of ['a', 'b', 'c', 'd']) {
        const mine = out.filter((id) => id.startsWith(`${user}-`));
        assert.deepEqual(
          mine,
          ids(source).filter((id) => id.startsWith(`${user}-`)),
        );
      }
    }
    assert.deepEqual(ids(interleaved(source[Symbol.iterator](), 1)), ids(source));
  });
});
