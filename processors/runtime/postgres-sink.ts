import {
  type DeadLetter,
  insertDeadLetter,
  lockOffset,
  storeOffset as storeNextOffset,
  storedOffsets,
} from '../../store/processor-offsets.js';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { type FetchShape, batchConsumer, consumeBatches } from './batch-consumer.js';
import { BatchEvents, logBatches } from './batch-events.js';
import { classify } from '../../lib/errors.js';
import type { Kafka } from 'kafkajs';
import { type Pool, type PoolClient, inTransaction, rollbackTo, savepoint } from '../../lib/db.js';
import type { Logger } from '../../lib/log.js';
import { yieldToLoop } from '../../lib/loop-watch.js';
import { AvroFrames, type SchemaRegistry } from '../../lib/kafka/registry.js';
import { type TopicKey, groupId, topicName } from '../../lib/kafka/topics.js';

export interface SinkMessage<T> {
  partition: number;
  offset: number;
  key: string | null;
  /** null for a tombstone */
  value: T | null;
}

/** What a sink does once the transaction holding its write has committed (never, when it does not). */
export type Committed = () => void;

/** A message a sink sets aside as a dead letter rather than write: no retry could write it (a sealed value that does not open). */
export interface Refusal {
  offset: number;
  error: string;
}

/** What a write returns: what to do once it commits, and the messages it refused (values, not thrown errors). */
export interface WriteOutcome {
  committed?: Committed;
  refused?: Refusal[];
}

/** Where a write stands in its partition. */
export interface WriteContext {
  partition: number;
  /** The partition's offset as stored when the transaction began (locked: the fence). */
  from: number;
  /** The offset the transaction stores if it commits. */
  to: number;
  /** One of several writes of the transaction, each of one message (a batch Postgres refused, isolated). */
  isolated: boolean;
}

/** A Kafka → Postgres step: `write` gets decoded messages and the transaction they must share with the offsets. */
export interface PostgresSink<T> {
  name: string;
  topic: TopicKey;
  /** The tables only this sink writes: scripts/replay.ts empties them before rebuilding. */
  tables: string[];
  /**
   * Messages applied in one transaction at most: a fetch's backlog is split, so locks are held
   * briefly and a retry redoes little.
   */
  chunk: number;
  write(client: PoolClient, messages: SinkMessage<T>[], context: WriteContext): Promise<WriteOutcome>;
  /** The partition's stored offset moved without a write (past transaction markers), from `from` to `to`. */
  moved?(partition: number, from: number, to: number): void;
  /** Called when the sink starts consuming: what it kept of an earlier run is not to be trusted. */
  open?(): void;
}

export interface SinkDeps {
  kafka: Kafka;
  registry: SchemaRegistry;
  db: Pool;
  log: Logger;
  config: { sinkConcurrency: number } & FetchShape;
  /** Where the steps report their batches; each step makes its own when none is given. */
  events?: BatchEvents;
}

export interface RunningSink {
  /** The step's batches, as it reports them (the `events` it was given, if any). */
  events: BatchEvents;
  stop(): Promise<void>;
}

/**
 * A batch's transaction waiting longer than this between two of its statements belongs to a
 * frozen process: Postgres ends it (a batch computes for a second or two at most between
 * statements), and the member that took the partition over applies the batch again.
 */
const SINK_IDLE_IN_TRANSACTION_MS = 30_000;

interface Written {
  refused: Omit<DeadLetter, 'payload'>[];
  /** Of the writes that were not rolled back. */
  committed: Committed[];
}

/** A write's error that no retry could get past: the message is set aside (lib/errors.ts). */
const isDeadLetter = (err: unknown) => classify(err).deadLetter;

/** A dead letter's text: what refused it, and why. */
const letterOf = (err: unknown) =>
  `${classify(err).origin === 'postgres' ? 'postgres: ' : ''}${(err as Error).message}`;

const keyed = <T>(messages: SinkMessage<T>[], refused: Refusal[] = []) =>
  refused.map((r) => ({ ...r, key: messages.find((m) => m.offset === r.offset)?.key ?? null }));

/**
 * Writes the batch; when it fails with an error of a dead letter (Postgres refused its data),
 * writes the messages one by one under savepoints and returns those whose write failed with one,
 * so one bad message never stalls a partition. The messages the sink itself refused are returned too.
 */
async function writeOrIsolate<T>(
  client: PoolClient,
  sink: PostgresSink<T>,
  messages: SinkMessage<T>[],
  context: WriteContext,
): Promise<Written> {
  await savepoint(client, 'sink_batch');
  try {
    const { committed, refused } = await sink.write(client, messages, context);
    return { refused: keyed(messages, refused), committed: committed ? [committed] : [] };
  } catch (err) {
    if (!isDeadLetter(err)) throw err;
    await rollbackTo(client, 'sink_batch');
  }
  const written: Written = { refused: [], committed: [] };
  for (const message of messages) {
    await savepoint(client, 'sink_message');
    try {
      const { committed, refused } = await sink.write(client, [message], { ...context, isolated: true });
      if (committed) written.committed.push(committed);
      written.refused.push(...keyed([message], refused));
    } catch (err) {
      if (!isDeadLetter(err)) throw err;
      await rollbackTo(client, 'sink_message');
      written.refused.push({ offset: message.offset, key: message.key, error: letterOf(err) });
    }
  }
  return written;
}

/**
 * Runs a sink with an exactly-once effect: rows and the next offset of each partition commit in
 * one Postgres transaction, and Postgres (never Kafka's group offsets) says where to resume.
 * Nothing is committed to Kafka, so a fetch can only start at or before the stored offset; messages
 * below it are skipped, and on assignment the consumer seeks straight to it.
 */
export async function runPostgresSink<T>(sink: PostgresSink<T>, deps: SinkDeps): Promise<RunningSink> {
  const topic = topicName(sink.topic);
  const log = deps.log.child({ processor: sink.name, topic });
  const events = deps.events ?? new BatchEvents();
  const of = (partition: number) => ({ processor: sink.name, topic, partition });
  const next = new Map<number, number>(); // partition -> next offset to apply, as stored
  const consumer = batchConsumer(deps.kafka, groupId(sink.name), deps.config);

  const loadOffsets = async (partitions: number[]) => {
    const rows = await storedOffsets(deps.db, sink.name, topic, partitions);
    for (const row of rows) next.set(row.partition, row.next_offset);
    return rows;
  };

  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const partitions = payload.memberAssignment[topic] ?? [];
    log.info({ partitions }, 'assigned');
    loadOffsets(partitions)
      .then((rows) =>
        rows.forEach((r) => consumer.seek({ topic, partition: r.partition, offset: String(r.next_offset) })),
      )
      .catch((err: unknown) => log.error({ err }, 'could not load stored offsets; resuming by skipping'));
  });

  const storeOffset = (client: Pool | PoolClient, partition: number, offset: number) =>
    storeNextOffset(client, sink.name, topic, partition, offset);

  // A fetch of transaction markers (or aborted messages) only never reaches eachBatch: its offsets
  // are stored here, else a sink of a transactional topic would never be seen to reach the end.
  // Every message below them has been applied, so storing them can only move past markers.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic !== topic || payload.batchSize > 0) return;
    const offset = Number(payload.lastOffset) + 1;
    const was = next.get(payload.partition) ?? 0;
    if (offset <= was) return;
    storeOffset(deps.db, payload.partition, offset)
      .then(() => {
        next.set(payload.partition, Math.max(next.get(payload.partition) ?? 0, offset));
        sink.moved?.(payload.partition, was, offset);
      })
      .catch((err: unknown) => log.warn({ err }, 'could not store the offset past transaction markers'));
  });

  const frames = new AvroFrames(deps.registry);
  const decode = (message: KafkaMessage): T | null =>
    message.value === null ? null : (frames.decode(message.value) as T);

  /**
   * One transaction: the chunk's rows, its dead letters and the next offset after `end` (offsets
   * `start` to `end`); reported as `batch.flushed` once committed.
   */
  const applyChunk = async (
    partition: number,
    chunk: SinkMessage<T>[],
    dead: DeadLetter[],
    [start, end]: [number, number],
    payloadOf: Map<number, Buffer | null>,
  ): Promise<number> => {
    const began = performance.now();
    const committed: Committed[] = [];
    let flushed: { from: number; messages: number; letters: DeadLetter[] } | undefined;
    const applied = await inTransaction(
      deps.db,
      async (client) => {
        // Fencing: the stored offset, locked, is the truth. A member that lost this partition (or
        // whose cache is stale) must not apply what another member already applied.
        const floor = (await lockOffset(client, sink.name, topic, partition)) ?? 0;
        if (floor > end) return floor;
        const todo = chunk.filter((m) => m.offset >= floor);
        const letters = dead.filter((d) => d.offset >= floor);
        // Every message of the range: those decoded, and those that did not decode.
        const messages = todo.length + letters.length;
        if (todo.length > 0) {
          const written = await writeOrIsolate(client, sink, todo, {
            partition,
            from: floor,
            to: end + 1,
            isolated: false,
          });
          letters.push(...written.refused.map((r) => ({ ...r, payload: payloadOf.get(r.offset) ?? null })));
          committed.push(...written.committed);
        }
        for (const d of letters) await insertDeadLetter(client, sink.name, topic, partition, d);
        await storeOffset(client, partition, end + 1);
        flushed = { from: Math.max(start, floor), messages, letters };
        return end + 1;
      },
      // A member frozen mid-batch holds locks on daily rows every partition writes; once it is
      // out of the group, the members that took over must not wait for it to wake.
      { idleTimeoutMs: SINK_IDLE_IN_TRANSACTION_MS },
    );
    for (const done of committed) done();
    if (flushed) {
      const { from, messages, letters } = flushed;
      if (letters.length > 0) {
        events.emit('batch.dead_lettered', {
          ...of(partition),
          letters: letters.map((d) => ({ offset: d.offset, error: d.error })),
        });
      }
      const durationMs = Math.round(performance.now() - began);
      events.emit('batch.flushed', {
        ...of(partition),
        from,
        to: end,
        messages,
        deadLettered: letters.length,
        durationMs,
      });
    }
    return applied;
  };

  const eachBatch = async (payload: EachBatchPayload) => {
    const { batch } = payload;
    if (!next.has(batch.partition)) await loadOffsets([batch.partition]);
    const from = next.get(batch.partition) ?? 0;
    // The batch's last offset, a transaction marker of a transactional producer included.
    const last = Number(batch.lastOffset());
    if (!payload.isRunning() || payload.isStale()) return;
    if (last < from) {
      // All applied before (a fetch from below the stored offset): move the fetch position on.
      payload.resolveOffset(batch.lastOffset());
      return;
    }
    const fresh = batch.messages.filter((m) => Number(m.offset) >= from);

    const decoded: SinkMessage<T>[] = [];
    const dead: DeadLetter[] = [];
    const payloadOf = new Map(fresh.map((m) => [Number(m.offset), m.value]));
    await frames.knowFramesOf(fresh.map((m) => m.value));
    for (const message of fresh) {
      const base = { partition: batch.partition, offset: Number(message.offset), key: message.key?.toString() ?? null };
      try {
        decoded.push({ ...base, value: decode(message) });
      } catch (err) {
        dead.push({ offset: base.offset, key: base.key, payload: message.value, error: (err as Error).message });
      }
    }
    await yieldToLoop();
    // A fetch can hold a large backlog: it is applied in transactions of at most `sink.chunk`
    // messages, each moving the stored offset.
    for (let i = 0; i < Math.max(1, decoded.length); i += sink.chunk) {
      const chunk = decoded.slice(i, i + sink.chunk);
      const end = i + sink.chunk >= decoded.length ? last : chunk[chunk.length - 1]!.offset;
      const start = i === 0 ? from : decoded[i - 1]!.offset + 1;
      const chunkDead = dead.filter((d) => d.offset >= start && d.offset <= end);
      const applied = await applyChunk(batch.partition, chunk, chunkDead, [start, end], payloadOf);
      next.set(batch.partition, applied);
      payload.resolveOffset(String(end));
      await payload.heartbeat();
      if (!payload.isRunning() || payload.isStale()) return;
    }
  };

  await refuseOffsetsAheadOfTopic(sink.name, topic, deps);
  sink.open?.();
  // Partitions hold disjoint users, so their batches only meet on shared daily rows, which every
  // transaction writes in one order (AdditiveDeltas): they wait for each other there, never deadlock.
  const unlog = logBatches(events, sink.name, log);
  await consumeBatches(consumer, topic, deps.config.sinkConcurrency, eachBatch, { processor: sink.name, events }).catch(
    (err: unknown) => {
      unlog();
      throw err;
    },
  );
  log.info('started');
  return {
    events,
    async stop() {
      await consumer.disconnect();
      unlog();
      log.info('stopped');
    },
  };
}

/**
 * Stored offsets beyond the end of the topic mean the topic was recreated (or Kafka's data was
 * lost) while Postgres kept its tables: resuming would skip every new message below them. Stored
 * offsets below the start of the topic mean messages expired (a derived topic keeps a week)
 * before the sink applied them. Either way, refuse to start and say what to do instead.
 */
async function refuseOffsetsAheadOfTopic(processor: string, topic: string, deps: SinkDeps): Promise<void> {
  const admin = deps.kafka.admin();
  await admin.connect();
  try {
    const bounds = new Map(
      (await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, { low: Number(o.low), high: Number(o.high) }]),
    );
    const rows = await storedOffsets(deps.db, processor, topic);
    const stored = new Map(rows.map((r) => [r.partition, r.next_offset]));
    const problems = [...bounds].flatMap(([partition, { low, high }]) => {
      const at = stored.get(partition) ?? 0;
      if (at > high) return [`partition ${partition}: ${at} > ${high}, the topic was recreated`];
      if (at < low) return [`partition ${partition}: ${at} < ${low}, messages expired unapplied`];
      return [];
    });
    if (problems.length > 0) {
      throw new Error(
        `${processor}: stored offsets of ${topic} are outside the topic (${problems.join('; ')}): ` +
          'rebuild with `npm run replay`',
      );
    }
  } finally {
    await admin.disconnect();
  }
}
