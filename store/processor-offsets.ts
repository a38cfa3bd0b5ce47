import type { Pool, PoolClient } from '../lib/db.js';

/**
 * Statements on `processor_offsets` and `dead_letters`: a Kafka→Postgres step's next offset per
 * partition, stored in the transaction of the rows it wrote (exactly-once effect), and the messages
 * it set aside.
 */

/** The stored next offsets of the step's partitions (all of the topic's when `partitions` is absent). */
export async function storedOffsets(
  db: Pool | PoolClient,
  processor: string,
  topic: string,
  partitions?: number[],
): Promise<{ partition: number; next_offset: number }[]> {
  const { rows } = await db.query<{ partition: number; next_offset: number }>(
    partitions === undefined
      ? 'select partition, next_offset from processor_offsets where processor = $1 and topic = $2'
      : 'select partition, next_offset from processor_offsets where processor = $1 and topic = $2 and partition = any($3)',
    partitions === undefined ? [processor, topic] : [processor, topic, partitions],
  );
  return rows;
}

/** The partition's stored next offset, locked until commit (the fence of a transaction); undefined: none. */
export async function lockOffset(
  client: PoolClient,
  processor: string,
  topic: string,
  partition: number,
): Promise<number | undefined> {
  const { rows } = await client.query<{ next_offset: number }>(
    'select next_offset from processor_offsets where processor = $1 and topic = $2 and partition = $3 for update',
    [processor, topic, partition],
  );
  return rows[0]?.next_offset;
}

/** Moves the partition's next offset forward to `offset` (never back). */
export async function storeOffset(
  client: Pool | PoolClient,
  processor: string,
  topic: string,
  partition: number,
  offset: number,
): Promise<void> {
  await client.query(
    `insert into processor_offsets (processor, topic, partition, next_offset) values ($1, $2, $3, $4)
     on conflict (processor, topic, partition)
     do update set next_offset = greatest(processor_offsets.next_offset, excluded.next_offset), updated_at = now()`,
    [processor, topic, partition, offset],
  );
}

/** Sets the partition's next offset, forward or back (a replay's restart). */
export async function setOffset(
  db: Pool | PoolClient,
  processor: string,
  topic: string,
  partition: number,
  offset: number,
): Promise<void> {
  await db.query(
    `insert into processor_offsets (processor, topic, partition, next_offset) values ($1, $2, $3, $4)
     on conflict (processor, topic, partition) do update set next_offset = excluded.next_offset, updated_at = now()`,
    [processor, topic, partition, offset],
  );
}

export interface DeadLetter {
  offset: number;
  key: string | null;
  payload: Buffer | null;
  error: string;
}

/** Sets a message aside (once: a repeat of the same offset changes nothing). */
export async function insertDeadLetter(
  client: Pool | PoolClient,
  processor: string,
  topic: string,
  partition: number,
  letter: DeadLetter,
): Promise<void> {
  await client.query(
    `insert into dead_letters (processor, topic, partition, kafka_offset, message_key, payload, error)
     values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing`,
    [processor, topic, partition, letter.offset, letter.key, letter.payload, letter.error],
  );
}
