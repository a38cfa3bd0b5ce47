import type { Consumer, EachBatchPayload, Kafka } from '../../lib/kafka.js';

/** A consumer of a processor's group whose offsets the processor stores itself (Postgres or a Kafka transaction). */
export function batchConsumer(kafka: Kafka, groupId: string): Consumer {
  return kafka.consumer({
    groupId,
    maxWaitTimeInMs: 200,
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
    eachBatch,
  });
}
