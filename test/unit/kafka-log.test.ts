import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../lib/config.js';
import { createKafka, createProducer, kafkaLineLevel, logLevel } from '../../lib/kafka/client.js';

describe('kafkaLineLevel: kafkajs lines that say nothing is wrong are kept at debug', () => {
  const response = (error: string) =>
    kafkaLineLevel(logLevel.ERROR, 'Connection', 'Response GroupCoordinator(key: 10, version: 2)', {
      broker: '127.0.0.1:9092',
      error,
    });

  it('a coordinator a new cluster is still starting: debug', () => {
    assert.equal(response('The group coordinator is not available'), 'debug');
    assert.equal(response("The coordinator is loading and hence can't process requests for this group"), 'debug');
  });

  it('any other refused answer stays an error', () => {
    assert.equal(response('Not authorized to access topics: [Topic authorization failed]'), 'error');
    assert.equal(
      kafkaLineLevel(logLevel.ERROR, 'Connection', 'Response InitProducerId(key: 22, version: 1)', {}),
      'error',
    );
  });

  it('the same text outside a Connection response stays an error', () => {
    assert.equal(
      kafkaLineLevel(logLevel.ERROR, 'Consumer', 'Crash: KafkaJSGroupCoordinatorNotFound', {
        error: 'The group coordinator is not available',
      }),
      'error',
    );
  });

  it("the Producer's bounded-retries warning: debug; other warnings stay warnings", () => {
    const bounded = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';
    assert.equal(kafkaLineLevel(logLevel.WARN, 'Producer', bounded, {}), 'debug');
    assert.equal(kafkaLineLevel(logLevel.WARN, 'Consumer', 'The group is rebalancing, re-joining', {}), 'warn');
    assert.equal(kafkaLineLevel(logLevel.INFO, 'Consumer', 'Starting', {}), 'info');
    assert.equal(kafkaLineLevel(logLevel.DEBUG, 'Producer', bounded, {}), 'debug');
  });
});

describe('createProducer: an idempotent producer that never gives up a send', () => {
  /** Every line kafkajs logs, at the level our logger got it, down to debug. */
  const logged = (make: (kafka: ReturnType<typeof createKafka>) => void) => {
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as { level: number; msg: string });
        done();
      },
    });
    make(createKafka({ ...loadConfig({}), kafkaLogLevel: 'debug' }, pino({ level: 'debug' }, sink)));
    return lines;
  };

  it('is made without kafkajs saying its retries are limited (a bounded producer is, at debug)', () => {
    // Made, not connected: kafkajs checks the retry setting when the producer is created.
    const ours = logged((kafka) => createProducer(kafka));
    assert.deepEqual(
      ours.filter((l) => l.msg.startsWith('Limiting retries')),
      [],
    );
    const bounded = logged((kafka) => kafka.producer({ idempotent: true, retry: { retries: 3 } }));
    assert.deepEqual(
      bounded.filter((l) => l.msg.startsWith('Limiting retries')).map((l) => l.level),
      [20],
    );
  });
});
