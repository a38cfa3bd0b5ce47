import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { KafkaJSNonRetriableError, KafkaJSProtocolError } from '../../lib/kafka/client.js';
import { asRetriable } from '../../processors/runtime/batch-consumer.js';

// kafkajs' own retrier, the one its consumer runs a fetch (and so a batch) in: no types, not exported.
const createRetry = createRequire(import.meta.url)('kafkajs/src/retry/index.js') as (options: {
  retries: number;
  initialRetryTime: number;
}) => <T>(fn: () => Promise<T>) => Promise<T>;

/** A Kafka protocol error as kafkajs builds it from a broker's error code. */
const protocolError = (type: string, code: number, retriable: boolean, message: string) =>
  new KafkaJSProtocolError(Object.assign(new Error(message), { type, code, retriable }));

/** What kafkajs' retrier makes of a batch that throws `first` once, then succeeds. */
async function retriedAfter(first: Error): Promise<string> {
  let calls = 0;
  const run = createRetry({ retries: 2, initialRetryTime: 1 });
  return run(() => (calls++ === 0 ? Promise.reject(first) : Promise.resolve('retried'))).catch(
    (err: Error) => `gave up: ${err.name}`,
  );
}

describe('asRetriable: no batch error stops a consumer for good', () => {
  const fenced = () =>
    new KafkaJSNonRetriableError(
      "Producer attempted an operation with an old epoch. Either there is a newer producer with the same transactionalId, or the producer's transaction has been expired by the broker",
    );

  it('kafkajs gives up on a fenced producer and a TypeError as thrown, and retries them once converted', async () => {
    for (const err of [fenced(), new TypeError('x is undefined')]) {
      assert.match(await retriedAfter(err), /^gave up/);
      assert.equal(await retriedAfter(asRetriable(err) as Error), 'retried');
    }
  });

  it('keeps the message, the cause and the membership type kafkajs rejoins on', () => {
    const unknownMember = protocolError('UNKNOWN_MEMBER_ID', 25, false, 'The coordinator is not aware of this member');
    const converted = asRetriable(unknownMember) as Error & { type?: string };
    assert.equal(converted.type, 'UNKNOWN_MEMBER_ID');
    assert.equal(converted.cause, unknownMember);
    assert.match(converted.message, /^KafkaJSProtocolError: The coordinator is not aware of this member$/);
  });

  it('passes errors kafkajs already retries through unchanged', () => {
    const pg = Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
    const rebalancing = protocolError(
      'REBALANCE_IN_PROGRESS',
      27,
      true,
      'The group is rebalancing, so a rejoin is needed',
    );
    assert.equal(asRetriable(pg), pg);
    assert.equal(asRetriable(rebalancing), rebalancing);
  });
});
