import type { Consumer, EachBatchPayload, Kafka } from '../../lib/kafka/client.js';

export interface FetchShape {
  fetchMinBytes: number;
  fetchMaxWaitMs: number;
  fetchMaxBytes: number;
}

/**
 * A consumer of a processor's group whose offsets the processor stores itself (Postgres or a
 * Kafka transaction). Its fetches collect by size and time (`fetch`): a batch pays fixed costs
 * (a transaction, tens of statements), so a trickle of live events must not arrive one by one.
 */
export function batchConsumer(kafka: Kafka, groupId: string, fetch: FetchShape): Consumer {
  return kafka.consumer({
    groupId,
    minBytes: fetch.fetchMinBytes,
    maxWaitTimeInMs: fetch.fetchMaxWaitMs,
    maxBytesPerPartition: fetch.fetchMaxBytes,
    // kafkajs' default for a whole fetch is ten partitions' worth at its 1 MiB per partition.
    maxBytes: 10 * fetch.fetchMaxBytes,
    // A killed member is noticed after this long; its partitions then move to the survivors.
    sessionTimeout: 10_000,
    heartbeatInterval: 3_000,
    retry: { retries: 10 },
  });
}

/**
 * Connects, subscribes from the beginning (a new group reads everything) and runs `eachBatch`,
 * `concurrency` partitions at once; nothing is resolved or committed but what `eachBatch` does.
 */
export async function consumeBatches(
  consumer: Consumer,
  topic: string,
  concurrency: number,
  eachBatch: (payload: EachBatchPayload) => Promise<void>,
): Promise<void> {
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: concurrency,
    eachBatch: async (payload) => {
      // kafkajs heartbeats between batches and when asked only: a batch that outlived the session
      // timeout (a backlog of chains, one transaction of 1,000 of them on a busy machine) cost the
      // member its place, and every member of the group stopped for a rebalance. While a batch
      // works, it is asked every second (kafkajs sends one per heartbeat interval at most); a
      // failure is left to the batch's own heartbeat, which rejoins.
      const beating = setInterval(() => payload.heartbeat().catch(() => undefined), 1000);
      try {
        await eachBatch(payload);
      } catch (err) {
        throw asRetriable(err);
      } finally {
        clearInterval(beating);
      }
    },
  });
}

/**
 * kafkajs stops a consumer for good, in a process that keeps running, when a batch fails with an
 * error it does not retry: one it calls non-retriable (a fenced producer's "old epoch", a
 * transaction the broker expired) or a TypeError, RangeError … A step must not stop silently, so
 * such an error becomes a plain one, which kafkajs logs and retries, rejoining first if the group
 * moved on.
 */
export function asRetriable(err: unknown): unknown {
  const e = err as { name?: string; message?: string; retriable?: boolean; type?: string };
  const plain =
    e.retriable !== false && !['RangeError', 'ReferenceError', 'SyntaxError', 'TypeError'].includes(e.name ?? '');
  if (plain) return err;
  // `type` kept: kafkajs rejoins on a membership error (UNKNOWN_MEMBER_ID …) by its type.
  return Object.assign(new Error(`${e.name ?? 'Error'}: ${e.message ?? String(err)}`, { cause: err }), {
    type: e.type,
  });
}
