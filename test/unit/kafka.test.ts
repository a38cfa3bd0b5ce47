import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { type KafkaLogLevel, loadConfig } from '../../lib/config.js';
import { bySize, createKafka } from '../../lib/kafka/client.js';

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

describe('createKafka: kafkajs log lines go to our logger from PI_KAFKA_LOG_LEVEL up', () => {
  /** What kafkajs's own logger passes on, at each of its levels, to a logger that takes everything. */
  const passedOn = (kafkaLogLevel: KafkaLogLevel) => {
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as { level: number; msg: string });
        done();
      },
    });
    const log = createKafka({ ...loadConfig({}), kafkaLogLevel }, pino({ level: 'debug' }, sink)).logger();
    log.error('no leader for this topic-partition');
    log.warn('coordinator moved');
    log.info('joined the group');
    return lines.map((l) => [l.level, l.msg]);
  };

  it('warn keeps warnings and errors', () => {
    assert.deepEqual(passedOn('warn'), [
      [50, 'no leader for this topic-partition'],
      [40, 'coordinator moved'],
    ]);
  });

  it('nothing passes nothing on', () => assert.deepEqual(passedOn('nothing'), []));

  it('refuses an unknown level', () =>
    assert.throws(
      () => loadConfig({ PI_KAFKA_LOG_LEVEL: 'loud' }),
      /PI_KAFKA_LOG_LEVEL=loud: expected nothing\|error/,
    ));
});
