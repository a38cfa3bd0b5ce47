import type { Logger } from '../../lib/log.js';

/** The step and partition a batch belongs to. */
export interface BatchOf {
  processor: string;
  topic: string;
  partition: number;
}

/** A fetch handed to a step. */
export interface BatchStarted extends BatchOf {
  firstOffset: number;
  lastOffset: number;
  messages: number;
}

/** A transaction that committed part or all of a batch: its effects and the offset it stored. */
export interface BatchFlushed extends BatchOf {
  /** The offsets it covered, `from` to `to` inclusive; the step resumes at `to + 1`. */
  from: number;
  to: number;
  /** Messages it applied (written, skipped as duplicates or erased, or set aside). */
  messages: number;
  /** Of them, set aside as dead letters. */
  deadLettered: number;
  /** From the start of this transaction's work to its commit. */
  durationMs: number;
  /** What the step's own work counts (the sessionizer's chains, the events it holds). */
  counts?: Record<string, number>;
}

/** Messages set aside (`dead_letters`), each with why. */
export interface BatchDeadLettered extends BatchOf {
  letters: { offset: number; error: string }[];
}

/** A batch that failed: kafkajs runs it again (rejoining first when the group moved on). */
export interface BatchRetried extends BatchOf {
  firstOffset: number;
  lastOffset: number;
  /** `classify`'s answers for the error: a retriable one is the moment's, the others a bug or bad data. */
  code: string;
  retriable: boolean;
  error: unknown;
  durationMs: number;
}

export interface BatchEventMap {
  'batch.started': BatchStarted;
  'batch.flushed': BatchFlushed;
  'batch.dead_lettered': BatchDeadLettered;
  'batch.retried': BatchRetried;
}

export type BatchEventName = keyof BatchEventMap;
type Listener<K extends BatchEventName> = (event: BatchEventMap[K]) => void;

/**
 * Typed instrumentation of the steps' batches (kafkajs' `consumer.events`): logs, metrics and
 * tests subscribe; the steps emit. Listeners run synchronously inside the batch, so they only
 * record: one that throws fails the batch, which is then retried.
 */
export class BatchEvents {
  private readonly listeners: { [K in BatchEventName]: Set<Listener<K>> } = {
    'batch.started': new Set(),
    'batch.flushed': new Set(),
    'batch.dead_lettered': new Set(),
    'batch.retried': new Set(),
  };

  /** Subscribes; returns what unsubscribes. */
  on<K extends BatchEventName>(name: K, listener: Listener<K>): () => void {
    const set = this.listeners[name] as Set<Listener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * The first event of `name` from now on that `matches` (what a test or a script waits for);
   * rejects, naming the event, when `signal` aborts first (`AbortSignal.timeout(ms)`).
   */
  when<K extends BatchEventName>(
    name: K,
    matches: (event: BatchEventMap[K]) => boolean = () => true,
    signal?: AbortSignal,
  ): Promise<BatchEventMap[K]> {
    return new Promise((resolve, reject) => {
      const abort = () => {
        off();
        reject(new Error(`no ${name} event matched before ${String(signal?.reason)}`, { cause: signal?.reason }));
      };
      const off = this.on(name, (event) => {
        if (!matches(event)) return;
        off();
        signal?.removeEventListener('abort', abort);
        resolve(event);
      });
      if (signal?.aborted) abort();
      else signal?.addEventListener('abort', abort, { once: true });
    });
  }

  emit<K extends BatchEventName>(name: K, event: BatchEventMap[K]): void {
    for (const listener of this.listeners[name] as Set<Listener<K>>) listener(event);
  }
}

/** The step's log lines of its batches: dead letters as errors, failures as warnings, flushes at debug. */
export function logBatches(events: BatchEvents, processor: string, log: Logger): () => void {
  const mine = <K extends BatchEventName>(name: K, listener: Listener<K>) =>
    events.on(name, (e) => {
      if (e.processor === processor) listener(e);
    });
  const off = [
    mine('batch.flushed', ({ partition, from, to, messages, deadLettered, durationMs, counts }) =>
      log.debug({ partition, from, to, messages, deadLettered, ms: durationMs, ...counts }, 'flushed'),
    ),
    mine('batch.dead_lettered', ({ partition, letters }) =>
      log.error({ partition, offsets: letters.map((l) => l.offset) }, 'dead-lettered'),
    ),
    mine('batch.retried', ({ partition, firstOffset, lastOffset, code, retriable, error, durationMs }) => {
      const fields = { partition, firstOffset, lastOffset, code, err: error, ms: durationMs };
      if (retriable) log.warn(fields, 'batch failed; retried');
      else log.error(fields, 'batch failed; retried');
    }),
  ];
  return () => off.forEach((unsubscribe) => unsubscribe());
}
