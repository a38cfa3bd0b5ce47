import assert from 'node:assert/strict';
import { validate } from '../../api/validate.js';
import { ApiError } from '../../api/errors.js';
import { closestName, fieldPath } from '../../lib/json-schemas.js';

function problem(schema: string, body: unknown): Record<string, unknown> {
  try {
    validate(schema, body);
  } catch (err) {
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 400);
    assert.equal(err.code, 'invalid_request');
    return err.details;
  }
  assert.fail('expected a validation error');
}

describe('request validation against schemas/', () => {
  it('turns JSON pointers into field names', () => {
    assert.equal(fieldPath('/events/3', 'user_id'), 'events[3].user_id');
    assert.equal(fieldPath('/properties/a~1b'), 'properties.a/b');
    assert.equal(fieldPath(''), '');
  });

  const cases: [string, string, unknown, Record<string, unknown>][] = [
    ['missing user_id', 'tracked-event.json', { event: 'x' }, { field: 'user_id', reason: 'required' }],
    ['missing event', 'tracked-event.json', { user_id: 'u' }, { field: 'event', reason: 'required' }],
    ['empty user_id', 'tracked-event.json', { user_id: '', event: 'x' }, { field: 'user_id', reason: 'min_length' }],
    ['numeric event', 'tracked-event.json', { user_id: 'u', event: 1 }, { field: 'event', reason: 'invalid_type' }],
    [
      'properties array',
      'tracked-event.json',
      { user_id: 'u', event: 'e', properties: [] },
      { field: 'properties', reason: 'invalid_type' },
    ],
    [
      'bad timestamp',
      'tracked-event.json',
      { user_id: 'u', event: 'e', timestamp: '2026-13-01' },
      { field: 'timestamp', reason: 'invalid_format' },
    ],
    [
      'unknown field',
      'tracked-event.json',
      { user_id: 'u', event: 'e', extra: 1 },
      { field: 'extra', reason: 'unknown_field' },
    ],
    ['body not an object', 'tracked-event.json', 'text', { field: '(body)', reason: 'invalid_type' }],
    [
      'vocabulary type',
      'tracked-event.json',
      { user_id: 'u', event: 'e', properties: { ui_context: { empty_state: 'yes' } } },
      { field: 'properties.ui_context.empty_state', reason: 'invalid_type' },
    ],
    [
      'vocabulary value',
      'tracked-event.json',
      { user_id: 'u', event: 'e', properties: { interaction: 'dance' } },
      { field: 'properties.interaction', reason: 'invalid_value' },
    ],
    [
      'a free property value over 8,192 characters',
      'tracked-event.json',
      { user_id: 'u', event: 'e', properties: { note: 'x'.repeat(8193) } },
      { field: 'properties.note', reason: 'max_length' },
    ],
    [
      'a long string at any depth of a free property',
      'event-batch.json',
      {
        events: [
          { user_id: 'u', event: 'e' },
          { user_id: 'u', event: 'e', properties: { a: [1, { b: 'x'.repeat(9000) }] } },
        ],
      },
      { field: 'events[1].properties.a[1].b', reason: 'max_length' },
    ],
    [
      'a long free member of ui_context',
      'tracked-event.json',
      { user_id: 'u', event: 'e', properties: { ui_context: { empty_state: true, note: 'x'.repeat(8193) } } },
      { field: 'properties.ui_context.note', reason: 'max_length' },
    ],
    [
      'a property key over 255 characters (the field is the object holding it)',
      'tracked-event.json',
      { user_id: 'u', event: 'e', properties: { ['k'.repeat(256)]: 1 } },
      { field: 'properties', reason: 'max_length' },
    ],
    [
      'a long key at any depth',
      'tracked-event.json',
      { user_id: 'u', event: 'e', properties: { list: [{ ['k'.repeat(256)]: 1 }] } },
      { field: 'properties.list[0]', reason: 'max_length' },
    ],
    ['empty batch', 'event-batch.json', { events: [] }, { field: 'events', reason: 'min_items' }],
    [
      'nested item',
      'event-batch.json',
      { events: [{ user_id: 'u', event: 'e' }, { event: 'e' }] },
      { field: 'events[1].user_id', reason: 'required' },
    ],
  ];
  for (const [name, schema, body, details] of cases) {
    it(`refuses ${name}`, () => assert.deepEqual(problem(schema, body), details));
  }

  it('accepts the spec samples', () => {
    validate('tracked-event.json', {
      user_id: 'user_123',
      event: 'feature_used',
      properties: { feature: 'export' },
      timestamp: '2024-01-15T10:30:00Z',
    });
    validate('tracked-event.json', {
      user_id: 'u',
      event: 'click',
      properties: { page: '/a', free_key: { any: ['shape'] }, ui_context: { empty_state: true, custom: 1 } },
    });
    validate('event-batch.json', {
      events: [{ user_id: 'user_123', event: 'page_view', properties: { page: '/dashboard' } }],
    });
  });

  it('accepts free properties up to the caps: keys of 255 characters, strings of 8,192 (code points)', () => {
    const key = 'k'.repeat(255);
    const text = '😀'.repeat(8192);
    validate('tracked-event.json', {
      user_id: 'u',
      event: 'e',
      properties: {
        [key]: text,
        nested: { [key]: [text, { [key]: null }], n: 1.5, t: true },
        ui_context: { [key]: text },
      },
    });
  });

  it('refuses a 1 MiB pathological property value by its length, in well under 50 ms of CPU', () => {
    const body = { user_id: 'u', event: 'e', properties: { v: 'a'.repeat(1 << 20) + '@' } };
    problem('tracked-event.json', body); // warm up
    const start = process.cpuUsage();
    assert.deepEqual(problem('tracked-event.json', body), { field: 'properties.v', reason: 'max_length' });
    const { user, system } = process.cpuUsage(start);
    assert.ok((user + system) / 1000 < 50, `${(user + system) / 1000} ms`);
  });

  it('names the known field an unknown one meant, and says limits in words', () => {
    const message = (schema: string, body: unknown) => {
      try {
        validate(schema, body);
      } catch (err) {
        return (err as ApiError).message;
      }
      return assert.fail('expected a validation error');
    };
    assert.equal(
      message('tracked-event.json', { userId: 'u1', event: 'click' }),
      'user_id is required. userId is not a known field: did you mean user_id?',
    );
    assert.equal(
      message('tracked-event.json', { user_id: 'u1', event: 'click', timestmp: '2026-01-01T00:00:00Z' }),
      'timestmp is not a known field. Did you mean timestamp?',
    );
    assert.equal(
      message('job-create.json', { nmae: 'x' }),
      'name is required. nmae is not a known field: did you mean name?',
    );
    assert.equal(message('job-create.json', { name: '' }), 'name must be at least 1 character long.');
    assert.equal(message('job-create.json', { name: 'x'.repeat(201) }), 'name must be at most 200 characters long.');
  });
});

describe('the known name an unknown one meant (lib/json-schemas.ts, closestName)', () => {
  it('takes the same name written another way, else one a letter or two off, when only one is', () => {
    const known = ['user_id', 'event', 'timestamp', 'properties', 'message_id'];
    assert.equal(closestName('userId', known), 'user_id');
    assert.equal(closestName('USER-ID', known), 'user_id');
    assert.equal(closestName('evnt', known), 'event');
    assert.equal(closestName('timestmp', known), 'timestamp');
    assert.equal(closestName('colour', known), undefined);
    assert.equal(closestName('ab', ['ac', 'ad']), undefined, 'two as close: no guess');
  });
});
