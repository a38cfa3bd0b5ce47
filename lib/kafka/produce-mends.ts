import { createRequire } from 'node:module';
import { crc32c } from '@node-rs/crc32';
import { mendedProduceRequest } from './produce-request.js';
// Types only: erased, so this module loads no kafkajs code before it mends it.
import type { Message, PartitionMetadata, PartitionerArgs } from 'kafkajs';

/**
 * Mends of kafkajs 2.2.4's produce path (pinned, in maintenance mode: ADR 0082), where the API spent
 * a third of its CPU per event at a burst (ADR 0092): the module each replaces is swapped in Node's
 * module cache before kafkajs loads it, so kafkajs's own code calls ours. Imported first by
 * lib/kafka/client.ts, through which every module loads kafkajs; one that loaded kafkajs before
 * would keep the originals, so this module then throws.
 */
const require = createRequire(import.meta.url);

interface Grouping {
  topic: string;
  partitionMetadata: PartitionMetadata[];
  messages: Message[];
  partitioner: (args: PartitionerArgs) => number;
}

/**
 * A send's messages by partition, each partition's in the order sent: what kafkajs's
 * `groupMessagesPerPartition` returns, which copied a partition's list for every message it
 * appended (quadratic in a send's messages per partition).
 */
export function groupMessagesPerPartition({
  topic,
  partitionMetadata,
  messages,
  partitioner,
}: Grouping): Record<number, Message[]> {
  const byPartition: Record<number, Message[]> = {};
  if (partitionMetadata.length === 0) return byPartition;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    (byPartition[partition] ??= []).push(message);
  }
  return byPartition;
}

/** CRC-32C of a record batch in native code (SSE 4.2), where kafkajs's table walk took ~3 ns a byte. */
export const recordBatchCrc = (buffer: Buffer): number => crc32c(buffer);

/** Each mended module: its replacement, made from kafkajs's own (kept on it as `original`). */
export const MENDED_MODULES: Record<string, (original: never) => object> = {
  'kafkajs/src/producer/groupMessagesPerPartition.js': () => groupMessagesPerPartition,
  'kafkajs/src/protocol/recordBatch/crc32C/index.js': () => recordBatchCrc,
  'kafkajs/src/protocol/requests/produce/v3/request.js': mendedProduceRequest,
};

/** kafkajs's first module to take a mended one: loaded already, it would keep the originals. */
const FIRST_USER = 'kafkajs/src/producer/sendMessages.js';
/**
 * Marks what this module put in the cache: a loader may evaluate it twice in one process (mocha
 * tries `require` before `import`), and the second finds kafkajs loaded and mended by the first.
 */
const MENDED = Symbol.for('pi.kafkajs-mended');

function mendProducePath(): void {
  const cached = (id: string) => require.cache[require.resolve(id)];
  if (cached(FIRST_USER)) {
    const mended = Object.keys(MENDED_MODULES).every(
      (id) => (cached(id)?.exports as Record<symbol, unknown> | undefined)?.[MENDED] === true,
    );
    if (mended) return;
    throw new Error('kafkajs was loaded before lib/kafka/produce-mends.ts: import it through lib/kafka/client.ts');
  }
  for (const [id, mend] of Object.entries(MENDED_MODULES)) {
    const original = require(id) as never;
    cached(id)!.exports = Object.assign(mend(original), { [MENDED]: true, original });
  }
}

mendProducePath();
