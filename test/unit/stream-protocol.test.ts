import assert from 'node:assert/strict';
import { CHANNELS, type Channel, parseClientMessage, subscribedReply } from '../../api/stream/protocol.js';

const json = (value: unknown) => JSON.stringify(value);

describe('stream protocol: parseClientMessage', () => {
  describe('accepts well-formed messages', () => {
    const cases: [string, string, ReturnType<typeof parseClientMessage>][] = [
      ['auth with an api_key', json({ type: 'auth', api_key: 'pi_live_abc' }), { type: 'auth', apiKey: 'pi_live_abc' }],
      [
        'subscribe to one channel',
        json({ type: 'subscribe', channels: ['friction_alerts'] }),
        { type: 'subscribe', channels: ['friction_alerts'] },
      ],
      [
        'subscribe to both channels, in the order sent',
        json({ type: 'subscribe', channels: ['job_completions', 'friction_alerts'] }),
        { type: 'subscribe', channels: ['job_completions', 'friction_alerts'] },
      ],
      [
        'unsubscribe',
        json({ type: 'unsubscribe', channels: ['job_completions'] }),
        { type: 'unsubscribe', channels: ['job_completions'] },
      ],
      [
        'duplicate channels collapse to one',
        json({ type: 'subscribe', channels: ['friction_alerts', 'job_completions', 'friction_alerts'] }),
        { type: 'subscribe', channels: ['friction_alerts', 'job_completions'] },
      ],
      [
        'duplicates collapse on unsubscribe too',
        json({ type: 'unsubscribe', channels: ['job_completions', 'job_completions'] }),
        { type: 'unsubscribe', channels: ['job_completions'] },
      ],
      ['ping', json({ type: 'ping' }), { type: 'ping' }],
      ['extra fields are ignored', json({ type: 'ping', id: 7 }), { type: 'ping' }],
    ];
    for (const [name, raw, expected] of cases) {
      it(name, () => assert.deepEqual(parseClientMessage(raw), expected));
    }
  });

  describe('answers malformed messages with an error (the connection stays open)', () => {
    const notAnObject = { type: 'error', code: 'invalid_message', message: 'Messages are JSON objects.' };
    const badChannels = (type: string) => ({
      type: 'error',
      code: 'invalid_message',
      message: `${type} needs channels (a non-empty array of strings).`,
      details: { field: 'channels', reason: 'invalid_type' },
    });
    const authRequired = {
      type: 'error',
      code: 'invalid_message',
      message: 'auth needs api_key (string).',
      details: { field: 'api_key', reason: 'required' },
    };
    const unknownType = (type: string | null) => ({
      type: 'error',
      code: 'unknown_type',
      message: 'Message types are auth, subscribe, unsubscribe and ping.',
      details: { type },
    });
    const cases: [string, string, unknown][] = [
      // not JSON
      ['plain text', 'hello', notAnObject],
      ['an empty message', '', notAnObject],
      ['truncated JSON', '{"type":"ping"', notAnObject],
      // JSON, but not an object
      ['an array', json([{ type: 'ping' }]), notAnObject],
      ['null', 'null', notAnObject],
      ['a number', '42', notAnObject],
      ['a string', json('ping'), notAnObject],
      ['a boolean', 'true', notAnObject],
      // auth
      ['auth without api_key', json({ type: 'auth' }), authRequired],
      ['auth with an empty api_key', json({ type: 'auth', api_key: '' }), authRequired],
      ['auth with a numeric api_key', json({ type: 'auth', api_key: 123 }), authRequired],
      ['auth with apiKey instead of api_key', json({ type: 'auth', apiKey: 'pi_live_abc' }), authRequired],
      // channels
      ['subscribe without channels', json({ type: 'subscribe' }), badChannels('subscribe')],
      ['subscribe with no channels', json({ type: 'subscribe', channels: [] }), badChannels('subscribe')],
      [
        'subscribe with a string instead of an array',
        json({ type: 'subscribe', channels: 'friction_alerts' }),
        badChannels('subscribe'),
      ],
      [
        'subscribe with a non-string channel',
        json({ type: 'subscribe', channels: ['friction_alerts', 1] }),
        badChannels('subscribe'),
      ],
      ['unsubscribe with null channels', json({ type: 'unsubscribe', channels: null }), badChannels('unsubscribe')],
      ['unsubscribe with an object', json({ type: 'unsubscribe', channels: {} }), badChannels('unsubscribe')],
      // type
      ['an unknown type', json({ type: 'publish' }), unknownType('publish')],
      ['a type in the wrong case', json({ type: 'PING' }), unknownType('PING')],
      ['a missing type', json({ api_key: 'pi_live_abc' }), unknownType(null)],
      ['a non-string type', json({ type: 5 }), unknownType(null)],
      ['an empty object', '{}', unknownType(null)],
    ];
    for (const [name, raw, expected] of cases) {
      it(name, () => assert.deepEqual(parseClientMessage(raw), expected));
    }
  });

  describe('names the unknown channels', () => {
    const cases: [string, string[], string[]][] = [
      ['one unknown channel', ['alerts'], ['alerts']],
      [
        'unknown channels among known ones, in the order sent',
        ['metrics', 'friction_alerts', 'errors'],
        ['metrics', 'errors'],
      ],
      ['channel names are case-sensitive', ['Friction_Alerts'], ['Friction_Alerts']],
    ];
    for (const [name, channels, unknown] of cases) {
      for (const type of ['subscribe', 'unsubscribe']) {
        it(`${type}: ${name}`, () =>
          assert.deepEqual(parseClientMessage(json({ type, channels })), {
            type: 'error',
            code: 'unknown_channel',
            message: `Unknown channel(s): ${unknown.join(', ')}.`,
            details: { unknown, channels: ['friction_alerts', 'job_completions', 'cohort_changes'] },
          }));
      }
    }
  });
});

describe('stream protocol: subscribedReply', () => {
  const cases: [string, Channel[], Channel[]][] = [
    ['nothing held', [], []],
    ['one channel', ['job_completions'], ['job_completions']],
    [
      'all, listed in the protocol order whatever the order held',
      ['cohort_changes', 'job_completions', 'friction_alerts'],
      [...CHANNELS],
    ],
  ];
  for (const [name, held, channels] of cases) {
    it(name, () => assert.deepEqual(subscribedReply(new Set(held)), { type: 'subscribed', channels }));
  }
});
