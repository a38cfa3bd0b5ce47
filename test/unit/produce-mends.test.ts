import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { Partitioners } from '../../lib/kafka/client.js';
import { MENDED_MODULES, groupMessagesPerPartition, recordBatchCrc } from '../../lib/kafka/produce-mends.js';
import {
  type ProduceArgs,
  type ProduceMessage,
  type ProduceRequest,
  encodeProduceRequest,
} from '../../lib/kafka/produce-request.js';

const require = createRequire(import.meta.url);

describe("kafkajs's produce path, mended", () => {
  it('is what kafkajs loads in place of its own modules', () => {
    // By name and mark: a loader may have evaluated the mends module twice (mocha tries `require` first).
    for (const id of Object.keys(MENDED_MODULES)) {
      const loaded = require(id) as Record<string | symbol, unknown>;
      assert.equal(loaded[Symbol.for('pi.kafkajs-mended')], true, id);
      assert.equal(typeof loaded.original, 'function', id);
    }
  });

  it('groups a send by partition, each partition in the order sent, as the partitioner says', () => {
    const partitionMetadata = [0, 1, 2].map((partitionId) => ({
      partitionId,
      leader: 0,
      partitionErrorCode: 0,
      replicas: [0],
      isr: [0],
    }));
    const messages = Array.from({ length: 3000 }, (_, i) => ({ key: `k${i % 17}`, value: String(i) }));
    const partitioner = Partitioners.DefaultPartitioner();
    const grouped = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages, partitioner });
    const expected: Record<number, typeof messages> = {};
    for (const message of messages) {
      const partition = partitioner({ topic: 't', partitionMetadata, message });
      expected[partition] = [...(expected[partition] ?? []), message];
    }
    assert.deepEqual(grouped, expected);
    assert.deepEqual(Object.keys(grouped).sort(), ['0', '1', '2']);
    assert.deepEqual(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner }), {});
  });

  describe('the Produce request', () => {
    const produceV3 = require('kafkajs/src/protocol/requests/produce/v3/request.js') as {
      (args: ProduceArgs): ProduceRequest;
      original: (args: ProduceArgs) => ProduceRequest;
    };
    const Long = require('kafkajs/src/utils/long.js') as { fromNumber(n: number): unknown };
    const bytesOf = async (request: ProduceRequest) => (await request.encode()).buffer;
    const random = (n: number) => crypto.randomBytes(n);
    const message = (i: number, at: number): ProduceMessage => ({
      key: i % 5 === 0 ? null : i % 2 ? `user-${i}-é` : random(16),
      value: i % 7 === 0 ? null : i % 3 ? random(1 + ((i * 37) % 900)) : `{"i":${i}}`,
      timestamp: String(at + ((i * 7919) % 4000) - 2000),
    });

    it('is the same bytes as kafkajs makes, idempotent or transactional, for many topics and partitions', async () => {
      const at = Date.now();
      const topicData = ['a', 'bé'].map((topic, t) => ({
        topic,
        partitions: [0, 3, 11].map((partition, p) => ({
          partition,
          firstSequence: 1000 * p + t,
          messages: Array.from({ length: 1 + ((p * 61 + t * 17) % 150) }, (_, i) => message(i, at)),
        })),
      }));
      const cases: ProduceArgs[] = [
        { acks: -1, timeout: 30_000, producerId: Long.fromNumber(4242), producerEpoch: 3, topicData },
        { acks: 1, timeout: 5000, transactionalId: 'pi-sessionize-0', producerId: Long.fromNumber(7), topicData },
        // An old event's time: a delta beyond 32 bits (13 digits, as all since 2001: kafkajs sorts times as strings).
        {
          acks: -1,
          timeout: 30_000,
          topicData: [
            {
              topic: 'c',
              partitions: [
                { partition: 1, messages: [message(1, at), { ...message(2, at), timestamp: '1000000000000' }] },
              ],
            },
          ],
        },
      ];
      for (const args of cases) {
        const ours = await bytesOf(produceV3(args));
        assert.ok(ours.equals(await bytesOf(produceV3.original(args))), JSON.stringify(args.topicData[0]!.topic));
        assert.equal((await bytesOf(produceV3(args))).length, ours.length);
      }
      assert.ok(encodeProduceRequest(cases[0]!).buffer.equals(await bytesOf(produceV3.original(cases[0]!))));
    });

    it('leaves compressed batches and records with headers to kafkajs', async () => {
      const args = (extra: Partial<ProduceArgs>, headers?: Record<string, string>): ProduceArgs => ({
        acks: -1,
        timeout: 1000,
        topicData: [
          {
            topic: 't',
            partitions: [{ partition: 0, messages: [{ key: 'k', value: 'v', timestamp: '1764000000000', headers }] }],
          },
        ],
        ...extra,
      });
      const withHeaders = args({}, { trace: 'x' });
      assert.ok((await bytesOf(produceV3(withHeaders))).equals(await bytesOf(produceV3.original(withHeaders))));
      const gzip = args({ compression: 1 });
      assert.ok((await bytesOf(produceV3(gzip))).equals(await bytesOf(produceV3.original(gzip))));
    });
  });

  it("checksums record batches as kafkajs's own CRC-32C does", () => {
    const own = require('kafkajs/src/protocol/recordBatch/crc32C/crc32C.js') as (b: Buffer) => number;
    assert.equal(recordBatchCrc(Buffer.from('123456789')), 0xe3069283); // the standard check value
    for (const length of [0, 1, 7, 64, 1000, 70_000]) {
      const bytes = crypto.randomBytes(length);
      assert.equal(recordBatchCrc(bytes), own(bytes), `${length} bytes`);
    }
  });
});
