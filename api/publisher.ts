import type { Kafka } from 'kafkajs';
import { bySize, createProducer, type Producer } from '../lib/kafka/client.js';
import type { Logger } from '../lib/log.js';
import { AvroFrames, type SchemaRegistry, registerValueSchema } from '../lib/kafka/registry.js';
import { type TopicKey, topicName } from '../lib/kafka/topics.js';
import { unavailable } from './errors.js';

export interface OutgoingMessage {
  key: string;
  /** null = tombstone */
  value: object | null;
  /** epoch ms */
  timestamp: number;
}

/** Seconds a client told 503 by the publisher waits before sending the same request again. */
const RETRY_AFTER_S = 5;

export interface PublisherLimits {
  /** How long a publish waits for Kafka before it throws 503 (PI_INGEST_DEADLINE_MS). */
  deadlineMs: number;
  /**
   * Sends still waiting on Kafka beyond which a new publish is refused at once: a silent broker
   * must not gather every request of the outage in memory, each with its encoded messages.
   */
  maxWaiting?: number;
}

const refused = () =>
  unavailable('The event store is unavailable; nothing was applied. Retry the same request later.', RETRY_AFTER_S);

/**
 * What one send carries at most: a request's messages of one user share a partition, and kafkajs
 * puts a send's messages of one partition in one record batch, which the broker refuses above 1 MB.
 */
const MAX_SEND_BYTES = 512 * 1024;

type Encoded = { key: string; value: Buffer | null; timestamp: string };

/** A part of a publish waiting for the next produce request. */
interface Queued {
  topic: string;
  messages: Encoded[];
  bytes: number;
  /** When its caller is answered 503: a part still queued then is not sent at all. */
  expiresAt: number;
  resolve(): void;
  reject(err: unknown): void;
}

/** A queued part whose caller was already answered 503: dropped, never sent late. */
class Expired extends Error {}

/**
 * The API's writer to Kafka: Confluent-framed Avro; resolves once Kafka has the messages (acks=all).
 * A large request goes out in several parts; if a later one fails, the client's retry repeats the
 * earlier ones too, which the sinks drop by message_id.
 *
 * The idempotent producer has one request in flight per broker, so one produce request per HTTP
 * request capped ingest at one request per round trip, and after an outage the backlog of sends
 * and retries outlived the outage by a minute (npm run faults, docs/reliability.md). Parts that
 * arrive while a produce request is in flight go out together in the next one.
 */
export class Publisher {
  private waiting = 0;
  private readonly queue: Queued[] = [];
  private flushing = false;

  private constructor(
    private readonly producer: Producer,
    private readonly frames: AvroFrames,
    private readonly schemaIds: Map<TopicKey, number>,
    private readonly limits: Required<PublisherLimits>,
    private readonly log: Logger,
  ) {}

  static async start(
    kafka: Kafka,
    registry: SchemaRegistry,
    log: Logger,
    topics: TopicKey[],
    limits: PublisherLimits,
  ): Promise<Publisher> {
    const schemaIds = new Map<TopicKey, number>();
    for (const topic of topics) schemaIds.set(topic, await registerValueSchema(registry, topic));
    const frames = new AvroFrames(registry);
    await frames.know(schemaIds.values());
    const producer = createProducer(kafka);
    await producer.connect();
    return new Publisher(
      producer,
      frames,
      schemaIds,
      { deadlineMs: limits.deadlineMs, maxWaiting: limits.maxWaiting ?? 256 },
      log,
    );
  }

  /**
   * Resolves once Kafka has every message, or throws a 503 (Retry-After) when it refuses or stays
   * silent past the deadline. After a deadline the send may still land later: a retry of the same
   * request is then stored once only by carrying the same message_id (the sinks keep the first).
   */
  async publish(topic: TopicKey, messages: OutgoingMessage[]): Promise<void> {
    const schemaId = this.schemaIds.get(topic);
    if (schemaId === undefined) throw new Error(`publisher was not started for ${topic}`);
    if (this.waiting >= this.limits.maxWaiting) throw refused();
    this.waiting++;
    const expiresAt = Date.now() + this.limits.deadlineMs;
    const sending = this.send(topic, schemaId, messages, expiresAt).finally(() => this.waiting--);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), this.limits.deadlineMs)),
    );
    let outcome: 'sent' | 'late';
    try {
      outcome = await Promise.race([sending, deadline]);
    } catch (err) {
      this.log.error({ err, topic, messages: messages.length }, 'kafka send failed');
      throw refused();
    } finally {
      clearTimeout(timer);
    }
    if (outcome === 'late') {
      // Heard, so that its later failure is logged rather than unhandled.
      sending.catch((err: unknown) => {
        if (!(err instanceof Expired)) this.log.warn({ err, topic }, 'kafka send failed after its deadline');
      });
      this.log.error({ topic, messages: messages.length, deadline_ms: this.limits.deadlineMs }, 'kafka send timed out');
      throw refused();
    }
  }

  private async send(topic: TopicKey, schemaId: number, messages: OutgoingMessage[], expiresAt: number) {
    const encoded = messages.map((m) => ({
      key: m.key,
      value: m.value === null ? null : this.frames.encode(schemaId, m.value),
      timestamp: String(m.timestamp),
    }));
    const parts = bySize(encoded, MAX_SEND_BYTES).map(
      (part) =>
        new Promise<void>((resolve, reject) => {
          const bytes = part.reduce((n, m) => n + (m.value?.length ?? 0) + Buffer.byteLength(m.key), 0);
          this.queue.push({ topic: topicName(topic), messages: part, bytes, expiresAt, resolve, reject });
        }),
    );
    void this.flush();
    await Promise.all(parts);
    return 'sent' as const;
  }

  /** One produce request at a time, carrying every part queued meanwhile (up to MAX_SEND_BYTES). */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch: Queued[] = [];
        let bytes = 0;
        while (this.queue.length > 0 && (batch.length === 0 || bytes + this.queue[0]!.bytes <= MAX_SEND_BYTES)) {
          const next = this.queue.shift()!;
          if (next.expiresAt <= Date.now()) next.reject(new Expired('answered 503 before it was sent'));
          else {
            batch.push(next);
            bytes += next.bytes;
          }
        }
        if (batch.length === 0) continue;
        const byTopic = new Map<string, Encoded[]>();
        for (const q of batch) {
          let messages = byTopic.get(q.topic);
          if (!messages) byTopic.set(q.topic, (messages = []));
          for (const m of q.messages) messages.push(m);
        }
        try {
          await this.producer.sendBatch({
            acks: -1,
            topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
          });
          for (const q of batch) q.resolve();
        } catch (err) {
          for (const q of batch) q.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
