import { createRequire } from 'node:module';
import { crc32c } from '@node-rs/crc32';

/**
 * kafkajs's Produce request (versions 3 to 7 share its body) encoded in one pass into one buffer of
 * its exact size, where kafkajs builds an encoder per record, grows each by copying, and copies
 * every record again into its batch, the batch into its partition and that into the request: with
 * sealing cheap (ADR 0091) this was a fifth of the API's CPU per event (ADR 0092). Same bytes as
 * kafkajs's own (a unit test compares them); compressed batches and records with headers, which
 * the service never sends, are left to kafkajs.
 */
const require = createRequire(import.meta.url);

interface EncoderLike {
  buf: Buffer;
  offset: number;
  readonly buffer: Buffer;
}
const Encoder = require('kafkajs/src/protocol/encoder.js') as new (initialSize?: number) => EncoderLike;
const Long = require('kafkajs/src/utils/long.js') as { fromValue(value: unknown): { value: bigint } };

type Bytes = string | Buffer | null | undefined;

export interface ProduceMessage {
  key?: Bytes;
  value: Bytes;
  timestamp?: string | number | null;
  headers?: Record<string, unknown>;
}

export interface ProduceArgs {
  acks: number;
  timeout: number;
  transactionalId?: string | null;
  producerId?: unknown;
  producerEpoch?: number;
  compression?: number;
  topicData: {
    topic: string;
    partitions: { partition: number; firstSequence?: number; messages: ProduceMessage[] }[];
  }[];
}

export interface ProduceRequest {
  apiKey: number;
  apiVersion: number;
  apiName: string;
  expectResponse: () => boolean;
  encode: () => Promise<EncoderLike>;
}

/** kafkajs's request module for version 3, with `encode` ours wherever the body is plain records. */
export function mendedProduceRequest(original: (args: ProduceArgs) => ProduceRequest) {
  return (args: ProduceArgs): ProduceRequest => {
    const request = original(args);
    return plainRecords(args) ? { ...request, encode: () => Promise.resolve(encodeProduceRequest(args)) } : request;
  };
}

const plainRecords = (args: ProduceArgs): boolean =>
  !args.compression &&
  args.topicData.every((t) =>
    t.partitions.every((p) => p.messages.every((m) => !m.headers || Object.keys(m.headers).length === 0)),
  );

/** Bytes of a key or value on the wire; -1 for null. */
const lengthOf = (bytes: Bytes): number =>
  bytes == null ? -1 : typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;

/** Kafka's varints are zigzag-encoded; Number arithmetic holds any timestamp delta exactly. */
const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1);

function varintSize(n: number): number {
  let z = zigzag(n);
  let size = 1;
  while (z >= 128) {
    z = Math.floor(z / 128);
    size++;
  }
  return size;
}

function writeVarint(buf: Buffer, at: number, n: number): number {
  let z = zigzag(n);
  while (z >= 128) {
    buf[at++] = (z % 128) | 128;
    z = Math.floor(z / 128);
  }
  buf[at++] = z;
  return at;
}

function writeVarBytes(buf: Buffer, at: number, bytes: Bytes, length: number): number {
  at = writeVarint(buf, at, length);
  if (length <= 0) return at;
  if (typeof bytes === 'string') buf.write(bytes, at, length, 'utf8');
  else (bytes as Buffer).copy(buf, at);
  return at + length;
}

/** A record batch's bytes after its length field, before its records. */
const BATCH_HEADER_BYTES = 49;

interface PlannedPartition {
  partition: number;
  firstSequence: number;
  messages: ProduceMessage[];
  firstTimestamp: number;
  maxTimestamp: number;
  /** per record: key length, value length, timestamp delta, body size */
  sizes: Float64Array;
  recordBytes: number;
}

function planPartition(partition: number, firstSequence: number, messages: ProduceMessage[]): PlannedPartition {
  const now = Date.now();
  // kafkajs takes the batch's first and last time from the messages that have one, else now.
  let first = Infinity;
  let max = -Infinity;
  for (const m of messages) {
    if (m.timestamp == null) continue;
    const t = Number(m.timestamp);
    if (t < first) first = t;
    if (t > max) max = t;
  }
  if (first === Infinity) first = max = now;
  const sizes = new Float64Array(messages.length * 4);
  let recordBytes = 0;
  messages.forEach((m, i) => {
    const keyLength = lengthOf(m.key);
    const valueLength = lengthOf(m.value);
    const delta = (m.timestamp ? Number(m.timestamp) : now) - first;
    const body =
      1 + // attributes
      varintSize(delta) +
      varintSize(i) +
      varintSize(keyLength) +
      Math.max(keyLength, 0) +
      varintSize(valueLength) +
      Math.max(valueLength, 0) +
      1; // no headers
    sizes[i * 4] = keyLength;
    sizes[i * 4 + 1] = valueLength;
    sizes[i * 4 + 2] = delta;
    sizes[i * 4 + 3] = body;
    recordBytes += varintSize(body) + body;
  });
  return { partition, firstSequence, messages, firstTimestamp: first, maxTimestamp: max, sizes, recordBytes };
}

/** The Produce request body (v3–v7), as kafkajs's encoder of it holds it. */
export function encodeProduceRequest(args: ProduceArgs): EncoderLike {
  const transactionalId = args.transactionalId ?? null;
  const producerId = Long.fromValue(args.producerId ?? -1).value;
  const producerEpoch = args.producerEpoch ?? 0;
  const attributes = transactionalId === null ? 0 : 16; // no compression; transactional bit
  const topics = args.topicData.map(({ topic, partitions }) => ({
    topic,
    partitions: partitions.map((p) => planPartition(p.partition, p.firstSequence ?? 0, p.messages)),
  }));
  let size = 2 + Math.max(lengthOf(transactionalId), 0) + 2 + 4 + 4;
  for (const { topic, partitions } of topics) {
    size += 2 + Buffer.byteLength(topic) + 4;
    for (const p of partitions) size += 4 + 4 + 8 + 4 + BATCH_HEADER_BYTES + p.recordBytes;
  }

  const buf = Buffer.allocUnsafe(size);
  let at = buf.writeInt16BE(lengthOf(transactionalId), 0);
  if (transactionalId !== null) at += buf.write(transactionalId, at, 'utf8');
  at = buf.writeInt16BE(args.acks, at);
  at = buf.writeInt32BE(args.timeout, at);
  at = buf.writeInt32BE(topics.length, at);
  for (const { topic, partitions } of topics) {
    at = buf.writeInt16BE(Buffer.byteLength(topic), at);
    at += buf.write(topic, at, 'utf8');
    at = buf.writeInt32BE(partitions.length, at);
    for (const p of partitions) {
      const batchLength = BATCH_HEADER_BYTES + p.recordBytes;
      at = buf.writeInt32BE(p.partition, at);
      at = buf.writeInt32BE(8 + 4 + batchLength, at); // the record set's size
      at = buf.writeBigInt64BE(0n, at); // base offset
      at = buf.writeInt32BE(batchLength, at);
      at = buf.writeInt32BE(0, at); // partition leader epoch
      at = buf.writeInt8(2, at); // magic
      const crcAt = at;
      at += 4;
      const checked = at;
      at = buf.writeInt16BE(attributes, at);
      at = buf.writeInt32BE(p.messages.length - 1, at); // last offset delta
      at = buf.writeBigInt64BE(BigInt(p.firstTimestamp), at);
      at = buf.writeBigInt64BE(BigInt(p.maxTimestamp), at);
      at = buf.writeBigInt64BE(producerId, at);
      at = buf.writeInt16BE(producerEpoch, at);
      at = buf.writeInt32BE(p.firstSequence, at);
      at = buf.writeInt32BE(p.messages.length, at);
      p.messages.forEach((m, i) => {
        const { sizes } = p;
        at = writeVarint(buf, at, sizes[i * 4 + 3]!); // the record's size after this field
        buf[at++] = 0; // attributes
        at = writeVarint(buf, at, sizes[i * 4 + 2]!); // timestamp delta
        at = writeVarint(buf, at, i); // offset delta
        at = writeVarBytes(buf, at, m.key, sizes[i * 4]!);
        at = writeVarBytes(buf, at, m.value, sizes[i * 4 + 1]!);
        at = writeVarint(buf, at, 0); // headers
      });
      buf.writeUInt32BE(crc32c(buf.subarray(checked, at)), crcAt);
    }
  }
  if (at !== size) throw new Error(`produce request: wrote ${at} of ${size} bytes`);
  const encoder = new Encoder(1);
  encoder.buf = buf;
  encoder.offset = size;
  return encoder;
}
