import { insertDeadLetter } from '../../store/processor-offsets.js';
import {
  type Admin,
  type EachBatchPayload,
  type Producer,
  bySize,
  rememberingPartitioner,
} from '../../lib/kafka/client.js';
import { projectAnalyticsConfigs } from '../../store/project-config.js';
import { AvroFrames, registerValueSchema } from '../../lib/kafka/registry.js';
import { unstorable } from '../../domain/tracked-event.js';
import { type EventOnWire, isSealedEvent } from '../../domain/sealed-user.js';
import { openEventsKeyed, sealingKeys, userKeyLookup } from '../../store/user-keys.js';
import { groupId, topicName, userKey } from '../../lib/kafka/topics.js';
import type { RunningSink, SinkDeps } from '../runtime/postgres-sink.js';
import { batchConsumer, consumeBatches } from '../runtime/batch-consumer.js';
import { BatchEvents, logBatches } from '../runtime/batch-events.js';
import { classify } from '../../lib/errors.js';
import { yieldToLoop } from '../../lib/loop-watch.js';
import { type PartitionEvent, PartitionSessions } from './core.js';
import { type SessionChainRecord, chainRecord, halvesOf, sealChain } from './record.js';

export const SESSIONIZE = 'sessionize';

/** A user idle this long (receipt time) is forgotten: a later event of theirs is checked by the sink. */
const IDLE_MS = 60 * 60_000;

/** Events held per partition at most (without their properties): beyond, the least recently active users are forgotten. */
const MAX_HELD_EVENTS = 100_000;

/**
 * Offsets a restart re-reads per partition at most: a user holding an event further behind is
 * forgotten (the sink splits their next event with their stored sessions). Without it, after a
 * 10M-event load the restart offset stayed near the topic's start, and a restart re-read nearly
 * all of it at full CPU (docs/performance.md).
 */
const MAX_REREAD_OFFSETS = 200_000;

/**
 * A chain record larger than this goes out in parts, and a send carries no more than
 * this: the broker refuses record batches above 1 MB (`message.max.bytes`).
 */
const MAX_CHAIN_BYTES = 512 * 1024;

/** Chains sealed and encoded between two turns of the event loop (`yieldToLoop`). */
const YIELD_EVERY_CHAINS = 500;

/** What the sessionizer writes as the metadata of its committed offsets. */
export interface SessionizeProgress {
  /** The offset after the last event it has read and written chains for. */
  processed: number;
}

/**
 * pi.events.v1 → pi.sessions.v1, a Kafka → Kafka step. Each batch's chains and the consumed
 * offset go in one Kafka transaction (one transactional producer per input partition, so a
 * member that lost the partition is fenced). The state (per user, the events of the last chain)
 * lives in memory and is rebuilt by reading again: the committed offset is the lowest one still
 * held, and the offset read up to travels as the commit's metadata. Chains written again after a
 * restart are the ones written before, or parts of them the sink recognises as such.
 */
export async function runSessionizer(deps: SinkDeps): Promise<RunningSink> {
  const input = topicName('events');
  const output = topicName('sessions');
  const group = groupId(SESSIONIZE);
  const log = deps.log.child({ processor: SESSIONIZE, topic: input });
  const batchEvents = deps.events ?? new BatchEvents();
  const schemaId = await registerValueSchema(deps.registry, 'sessions');
  const frames = new AvroFrames(deps.registry);
  await frames.know([schemaId]);
  // Replaced on every rebalance: Kafka then resumes each partition from its committed offset.
  let states = new Map<number, PartitionSessions>();
  const producers = new Map<number, Producer>();
  const consumer = batchConsumer(deps.kafka, group, deps.config);
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    states = new Map();
    log.info({ partitions: payload.memberAssignment[input] ?? [] }, 'assigned');
  });

  const producerFor = async (partition: number): Promise<Producer> => {
    let producer = producers.get(partition);
    if (!producer) {
      producer = deps.kafka.producer({
        transactionalId: `${group}.${input}.${partition}`,
        idempotent: true,
        maxInFlightRequests: 1,
        // murmur2 of every chain's key was 4 % of the processors' CPU under live traffic.
        createPartitioner: rememberingPartitioner,
        // A transaction that starts while the coordinator still completes the previous one is
        // refused (CONCURRENT_TRANSACTIONS) for a few ms: retry soon, as Kafka's Java client does.
        retry: { initialRetryTime: 20, maxRetryTime: 1000, retries: 10 },
      });
      await producer.connect();
      producers.set(partition, producer);
    }
    return producer;
  };

  const eachBatch = async (payload: EachBatchPayload) => {
    const started = performance.now();
    const { batch } = payload;
    if (batch.messages.length === 0 || !payload.isRunning() || payload.isStale()) return;
    const mine = states;
    let state = mine.get(batch.partition);
    if (!state)
      mine.set(batch.partition, (state = new PartitionSessions(IDLE_MS, MAX_HELD_EVENTS, MAX_REREAD_OFFSETS)));
    const events: PartitionEvent[] = [];
    const refused: { offset: string; error: string }[] = [];
    const wire: { offset: string; value: EventOnWire }[] = [];
    await frames.knowFramesOf(batch.messages.map((m) => m.value));
    for (const message of batch.messages) {
      if (message.value === null) continue;
      try {
        wire.push({ offset: message.offset, value: frames.decode(message.value) as EventOnWire });
      } catch (err) {
        refused.push({ offset: message.offset, error: (err as Error).message });
      }
    }
    await yieldToLoop();
    // Events of an erased user (no key any more) are skipped; plain ones (written before sealing)
    // get their user a key, so that the chains they join go out sealed.
    const { opened, sealing } = await openEventsKeyed(
      deps.db,
      wire.map((w) => w.value),
    );
    const plainUsers = new Set<string>();
    for (const [i, { offset, value }] of wire.entries()) {
      const r = opened[i];
      if (!r) continue;
      if (r instanceof Error) {
        refused.push({ offset, error: r.message });
        continue;
      }
      const problem = unstorable(r);
      if (problem) {
        refused.push({ offset, error: problem });
        continue;
      }
      if (!isSealedEvent(value)) plainUsers.add(userKeyLookup(r.project_id, r.user_id));
      events.push({
        projectId: r.project_id,
        event: {
          message_id: r.message_id,
          user_id: r.user_id,
          event: r.event,
          timestamp: Number(r.timestamp),
          received_at: Number(r.received_at),
          offset: Number(offset),
          properties: r.properties,
        },
      });
    }
    // Kept in Postgres, as the sinks' dead letters are; writing one twice changes nothing.
    for (const r of refused) {
      const message = batch.messages.find((m) => m.offset === r.offset)!;
      await insertDeadLetter(deps.db, SESSIONIZE, input, batch.partition, {
        offset: Number(r.offset),
        key: message.key?.toString() ?? null,
        payload: message.value,
        error: r.error,
      });
    }
    if (refused.length > 0) {
      const letters = refused.map((r) => ({ offset: Number(r.offset), error: r.error }));
      batchEvents.emit('batch.dead_lettered', {
        processor: SESSIONIZE,
        topic: input,
        partition: batch.partition,
        letters,
      });
    }
    const configs = await projectAnalyticsConfigs(deps.db, [...new Set(events.map((e) => e.projectId))]);
    await yieldToLoop();
    const step = state.add(events, (projectId) => configs.get(projectId)!.session);
    const { chains } = step;
    await yieldToLoop();
    // A chain goes sealed with the key that opened its user's events in this batch; the users whose
    // events came plain get theirs looked up, or made. A user erased since has no key: their
    // chains are not written (one erased while the batch runs is sealed with the deleted key, so
    // nobody opens it: the sink skips it).
    const unsealed = chains.filter((c) => !sealing.has(userKeyLookup(c.projectId, c.userId)));
    const looked = await sealingKeys(
      deps.db,
      unsealed.map((c) => ({ projectId: c.projectId, userId: c.userId })),
      plainUsers,
    );
    const messages: { key: string; value: Buffer }[] = [];
    for (const [i, chain] of chains.entries()) {
      if (i % YIELD_EVERY_CHAINS === YIELD_EVERY_CHAINS - 1) await yieldToLoop();
      const lookup = userKeyLookup(chain.projectId, chain.userId);
      const key = sealing.get(lookup) ?? looked.get(lookup);
      if (!key) continue;
      // A record too large for a message goes in parts, in order: the sink takes them alike.
      const encode = (record: SessionChainRecord): Buffer[] => {
        const value = frames.encode(schemaId, sealChain(record, key.ref, key.key));
        const halves = value.length > MAX_CHAIN_BYTES ? halvesOf(record) : undefined;
        return halves ? halves.flatMap(encode) : [value];
      };
      const messageKey = userKey(chain.projectId, key.ref);
      for (const value of encode(chainRecord(chain))) messages.push({ key: messageKey, value });
    }
    const next = Number(batch.lastOffset()) + 1;
    const progress: SessionizeProgress = { processed: next };
    const producer = await producerFor(batch.partition);
    const transaction = await producer.transaction();
    try {
      for (const part of bySize(messages, MAX_CHAIN_BYTES)) await transaction.send({ topic: output, messages: part });
      await transaction.sendOffsets({
        consumerGroupId: group,
        topics: [
          {
            topic: input,
            partitions: [
              // kafkajs passes metadata through to TxnOffsetCommit; its types leave it out.
              {
                partition: batch.partition,
                offset: String(step.restartOffset(next)),
                metadata: JSON.stringify(progress),
              } as {
                partition: number;
                offset: string;
              },
            ],
          },
        ],
      });
      await transaction.commit();
    } catch (err) {
      await transaction.abort().catch(() => undefined);
      // A fenced producer stays fenced: the retry of the batch starts with a new one.
      producers.delete(batch.partition);
      await producer.disconnect().catch(() => undefined);
      throw err;
    }
    // Only now: a failed transaction leaves the state as it was, for kafkajs' retry of the batch.
    step.commit();
    payload.resolveOffset(batch.lastOffset());
    batchEvents.emit('batch.flushed', {
      processor: SESSIONIZE,
      topic: input,
      partition: batch.partition,
      from: Number(batch.firstOffset() ?? batch.lastOffset()),
      to: next - 1,
      messages: batch.messages.length,
      deadLettered: refused.length,
      durationMs: Math.round(performance.now() - started),
      counts: { chains: chains.length, held: state.heldEvents },
    });
    await payload.heartbeat();
  };

  const unlog = logBatches(batchEvents, SESSIONIZE, log);
  await consumeBatches(consumer, input, deps.config.sinkConcurrency, eachBatch, {
    processor: SESSIONIZE,
    events: batchEvents,
  }).catch((err: unknown) => {
    unlog();
    throw err;
  });
  log.info('started');
  return {
    events: batchEvents,
    async stop() {
      await consumer.disconnect();
      await Promise.all([...producers.values()].map((p) => p.disconnect()));
      unlog();
      log.info('stopped');
    },
  };
}

/**
 * Per partition of pi.events.v1, the offset the sessionizer has read up to (0 for one it has not
 * committed yet): from the metadata of its committed offsets.
 */
export async function sessionizeProgress(admin: Admin): Promise<Map<number, number>> {
  const [topic] = await retryingCoordinatorErrors(() =>
    admin.fetchOffsets({ groupId: groupId(SESSIONIZE), topics: [topicName('events')] }),
  );
  const progress = new Map<number, number>();
  for (const p of topic?.partitions ?? []) {
    let processed = Number(p.offset) < 0 ? 0 : Number(p.offset);
    try {
      if (p.metadata) processed = Math.max(processed, (JSON.parse(p.metadata) as SessionizeProgress).processed);
    } catch {
      // A commit without our metadata (e.g. set by `replay`): the offset is all there is.
    }
    progress.set(p.partition, processed);
  }
  return progress;
}

/**
 * kafkajs' admin does not retry an offset fetch that meets a moving group coordinator
 * (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS: common while groups rebalance after a crash):
 * retried here while Kafka calls the error retriable, for about five seconds.
 */
async function retryingCoordinatorErrors<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!classify(err).retriable || attempt >= 25) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
