import assert from 'node:assert/strict';
import {
  MAX_CLOCK_SKEW_MS,
  type TrackedEventRecord,
  checkTimestamp,
  firstOccurrences,
  toRecord,
  unstorable,
} from '../../domain/tracked-event.js';
import { toRawEventRow } from '../../processors/raw-sink/core.js';
import { toColumns } from '../../lib/db.js';

describe('tracked events', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');

  it('defaults the timestamp to the receive time and assigns a message id', () => {
    const record = toRecord('p', { user_id: 'u', event: 'e' }, now);
    assert.equal(record.timestamp, now);
    assert.equal(record.received_at, now);
    assert.match(record.message_id, /^[0-9a-f-]{36}$/);
    assert.equal(record.properties, '{}');
  });

  it('keeps the client message id and timestamp', () => {
    const record = toRecord(
      'p',
      { user_id: 'u', event: 'e', message_id: 'm1', timestamp: '2026-11-20T00:00:00+01:00' },
      now,
    );
    assert.equal(record.message_id, 'm1');
    assert.equal(record.timestamp, Date.parse('2026-11-19T23:00:00Z'));
  });

  it('accepts timestamps up to one day ahead and from 2000 on', () => {
    assert.equal(checkTimestamp(new Date(now + MAX_CLOCK_SKEW_MS).toISOString(), now), undefined);
    assert.equal(checkTimestamp(new Date(now + MAX_CLOCK_SKEW_MS + 1).toISOString(), now), 'out_of_range');
    assert.equal(checkTimestamp('2000-01-01T00:00:00Z', now), undefined);
    assert.equal(checkTimestamp('1999-12-31T23:59:59.999Z', now), 'out_of_range');
    assert.equal(checkTimestamp(undefined, now), undefined);
    // The date-time format admits a leap second, which a Date cannot hold.
    assert.equal(checkTimestamp('2016-12-31T23:59:60Z', now), 'out_of_range');
  });

  it("marks a browser key's message ids with the prefix, given or made", () => {
    assert.equal(toRecord('p', { user_id: 'u', event: 'e', message_id: 'm' }, now, 'b:').message_id, 'b:m');
    assert.match(toRecord('p', { user_id: 'u', event: 'e' }, now, 'b:').message_id, /^b:[0-9a-f-]{36}$/);
  });

  it('maps a record to a raw_events row and rows to columns', () => {
    const record = toRecord('p', { user_id: 'u', event: 'e', properties: { a: 1 }, message_id: 'm' }, now);
    const row = toRawEventRow(record, 2, 41);
    assert.deepEqual(row, {
      project_id: 'p',
      message_id: 'm',
      user_id: 'u',
      event: 'e',
      properties: '{"a":1}',
      occurred_at: '2026-11-21T12:00:00.000Z',
      received_at: '2026-11-21T12:00:00.000Z',
      kafka_partition: 2,
      kafka_offset: 41,
    });
    assert.deepEqual(toColumns([row, { ...row, message_id: 'n' }], ['message_id', 'kafka_offset']), [
      ['m', 'n'],
      [41, 41],
    ]);
    // JSON columns as one JSON array (jsonb_array_elements): node-postgres escapes array elements slowly.
    const properties = toColumns([row, { ...row, properties: '{"b":"x\\"y"}' }], ['properties'], ['properties']);
    assert.deepEqual(properties, ['[{"a":1},{"b":"x\\"y"}]']);
    assert.deepEqual(JSON.parse(properties[0] as string), [{ a: 1 }, { b: 'x"y' }]);
  });
});

describe('firstOccurrences', () => {
  it('keeps the first record of each message id of a project, in order', () => {
    const r = (project_id: string, message_id: string, n: number) => ({ project_id, message_id, n });
    assert.deepEqual(
      firstOccurrences([r('p', 'a', 1), r('p', 'b', 2), r('p', 'a', 3), r('q', 'a', 4), r('p', 'b', 5)]),
      [r('p', 'a', 1), r('p', 'b', 2), r('q', 'a', 4)],
    );
  });
});

describe('unstorable: what Postgres would refuse as an analytics event', () => {
  const good: TrackedEventRecord = {
    project_id: '8d0c5a4e-2f43-4c7e-9a55-0a1f2b3c4d5e',
    message_id: 'm1',
    user_id: 'u1',
    event: 'click',
    timestamp: Date.UTC(2026, 10, 22),
    received_at: Date.UTC(2026, 10, 22),
    properties: '{"page":"/home","label":"a \\\\u0000 b"}',
  };
  const cases: [string, Partial<TrackedEventRecord>, string | undefined][] = [
    ['a good record (an escaped backslash before u0000 is text)', {}, undefined],
    ['a project id that is no uuid', { project_id: 'not-a-uuid' }, 'project_id is not a uuid'],
    ['U+0000 in the user id', { user_id: 'a\u0000b' }, 'user_id holds U+0000'],
    ['a message id of 2001 bytes', { message_id: 'x'.repeat(2001) }, 'message_id is longer than 2000 bytes'],
    ['a message id of 2000 bytes', { message_id: 'x'.repeat(2000) }, undefined],
    ['an event name of 667 three-byte characters', { event: '中'.repeat(667) }, 'event is longer than 2000 bytes'],
    ['a timestamp past 9999', { timestamp: 253_402_300_800_000 }, 'timestamp is out of range'],
    ['a negative received_at', { received_at: -1 }, 'received_at is out of range'],
    ['properties that are no JSON', { properties: '{' }, 'properties is not JSON'],
    ['properties that are an array', { properties: '[1]' }, 'properties is not a JSON object'],
    ['U+0000 in a nested value', { properties: '{"a":{"b":["x\\u0000"]}}' }, 'properties hold U+0000'],
    ['U+0000 in a key', { properties: '{"a\\u0000":1}' }, 'properties hold U+0000'],
  ];
  for (const [what, change, problem] of cases) {
    it(what, () => assert.equal(unstorable({ ...good, ...change }), problem));
  }
});
