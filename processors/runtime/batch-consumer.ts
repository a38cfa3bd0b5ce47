import { ServiceError, classify, isProgrammingError } from '../../lib/errors.js';
import type { Consumer, EachBatchPayload, Kafka } from '../../lib/kafka/client.js';
import type { BatchEvents } from './batch-events.js';

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

/** Where a step's batches are reported (`batch.started`, `batch.retried`). */
export interface Instrumented {
  processor: string;
  events: BatchEvents;
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
  instrumented?: Instrumented,
): Promise<void> {
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: concurrency,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const of = {
        processor: instrumented?.processor ?? '',
        topic: batch.topic,
        partition: batch.partition,
        firstOffset: Number(batch.firstOffset() ?? batch.lastOffset()),
        lastOffset: Number(batch.lastOffset()),
      };
      const started = performance.now();
      instrumented?.events.emit('batch.started', { ...of, messages: batch.messages.length });
      // kafkajs heartbeats between batches and when asked only: a batch that outlived the session
      // timeout (a backlog of chains, one transaction of 1,000 of them on a busy machine) cost the
      // member its place, and every member of the group stopped for a rebalance. While a batch
      // works, it is asked every second (kafkajs sends one per heartbeat interval at most); a
      // failure is left to the batch's own heartbeat, which rejoins.
      const beating = setInterval(() => payload.heartbeat().catch(() => undefined), 1000);
      try {
        await eachBatch(payload);
      } catch (err) {
        const { code, retriable } = classify(err);
        const durationMs = Math.round(performance.now() - started);
        instrumented?.events.emit('batch.retried', { ...of, code, retriable, error: err, durationMs });
        throw asRetriable(err);
      } finally {
        clearInterval(beating);
      }
    },
  });
}

/**
 * kafkajs stops a consumer for good, in a process that keeps running, when a batch fails with an
 * error it does not retry: one that says `retriable: false` (a fenced producer's "old epoch", a
 * transaction the broker expired) or a programming error (TypeError, RangeError …: its retrier's
 * own rule). A batch is never skipped and a step must not stop silently, so such an error becomes
 * a retriable `ServiceError`, which kafkajs logs and retries, rejoining first if the group moved on.
 */
export function asRetriable(err: unknown): unknown {
  const e = err as { name?: string; message?: string; retriable?: boolean; type?: string };
  if (e.retriable !== false && !isProgrammingError(err)) return err;
  const wrapped = new ServiceError(classify(err).code, `${e.name ?? 'Error'}: ${e.message ?? String(err)}`, {
    retriable: true,
    cause: err,
  });
  // `type` kept: kafkajs rejoins on a membership error (UNKNOWN_MEMBER_ID …) by its type.
  return Object.assign(wrapped, { type: e.type });
}
