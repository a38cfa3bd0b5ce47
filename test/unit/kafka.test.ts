import assert from 'node:assert/strict';
import { bySize } from '../../lib/kafka.js';

describe('bySize: sends small enough for the broker', () => {
  const m = (key: string, bytes: number) => ({ key, value: Buffer.alloc(bytes) });

  it('keeps order and fills each send up to the limit, keys counted', () => {
    const messages = [m('a', 4), m('b', 4), m('c', 4), m('d', 1)];
    assert.deepEqual(
      bySize(messages, 10).map((send) => send.map((x) => x.key)),
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    );
  });

  it('sends a message larger than the limit alone, and nothing for no messages', () => {
    assert.deepEqual(
      bySize([m('a', 2), m('b', 30), m('c', 2)], 10).map((send) => send.map((x) => x.key)),
      [['a'], ['b'], ['c']],
    );
    assert.deepEqual(bySize([], 10), []);
  });
});
