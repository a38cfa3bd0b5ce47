import assert from 'node:assert/strict';
import { Partitioners, type PartitionMetadata, rememberingPartitioner } from '../../lib/kafka/client.js';

const partitions = (n: number): PartitionMetadata[] =>
  Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0, replicas: [0], isr: [0], partitionErrorCode: 0 }));

describe('the producers’ partitioner', () => {
  const keys = [...Array.from({ length: 500 }, (_, i) => `project-${i % 7}:user-${i}`), 'é', '', 'a:b'];

  it('gives every key the partition of kafkajs’s default partitioner, asked once or many times', () => {
    for (const n of [1, 3, 8]) {
      const inner = Partitioners.DefaultPartitioner();
      const remembering = rememberingPartitioner();
      for (const round of [1, 2]) {
        for (const key of keys) {
          const args = { topic: 't', partitionMetadata: partitions(n), message: { key, value: null } };
          assert.equal(remembering(args), inner(args), `key ${key}, ${n} partitions, round ${round}`);
        }
      }
    }
  });

  it('starts again when the topic’s partition count changes, and keeps topics apart', () => {
    const remembering = rememberingPartitioner();
    const inner = Partitioners.DefaultPartitioner();
    const on = (topic: string, n: number, key: string) => ({
      topic,
      partitionMetadata: partitions(n),
      message: { key, value: null },
    });
    // A key whose partition differs between 3 and 8 partitions.
    const key = keys.find((k) => inner(on('t', 3, k)) !== inner(on('t', 8, k)))!;
    assert.equal(remembering(on('t', 3, key)), inner(on('t', 3, key)));
    assert.equal(remembering(on('t', 8, key)), inner(on('t', 8, key)));
    assert.equal(remembering(on('u', 3, key)), inner(on('u', 3, key)));
  });

  it('hashes a Buffer key by its bytes and a string by its UTF-8, and leaves a chosen partition alone', () => {
    const remembering = rememberingPartitioner();
    const inner = Partitioners.DefaultPartitioner();
    const args = (key: string | Buffer, partition?: number) => ({
      topic: 't',
      partitionMetadata: partitions(8),
      message: { key, value: null, ...(partition !== undefined && { partition }) },
    });
    const latin1 = Buffer.from('é', 'latin1');
    assert.notEqual(inner(args('é')), inner(args(latin1)), 'the two differ for the default partitioner');
    assert.equal(remembering(args('é')), inner(args('é')));
    assert.equal(remembering(args(latin1)), inner(args(latin1)));
    assert.equal(remembering(args('é', 5)), 5);
  });
});
