/**
 * The ingest path alone, in this process: a `POST /events/batch` body (simulator events, `batch`
 * per request) taken to the Kafka record bytes the API sends, stage by stage — JSON parse, the
 * character and depth walk (`problemAt`), schema validation, the PII filter and the record,
 * sealing, Avro framing, the Produce request — with the CPU each costs per event, and what compressing
 * the record batch would save and cost. A diagnosis beside the live figure
 * (`npm run bench -- live`, the API's CPU per event as users run it), never a headline: no
 * network, no Kafka, no Postgres (the user keys are made here, as the API keeps them).
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import avro from 'avsc';
import { problemAt } from '../../api/body.js';
import { validate } from '../../api/validate.js';
import { withoutPii } from '../../domain/pii-filter.js';
import { sealEvent, userRef } from '../../domain/sealed-user.js';
import { type TrackedEventInput, toRecord } from '../../domain/tracked-event.js';
import { AvroFrames, type SchemaRegistry } from '../../lib/kafka/registry.js';
import { type ProduceArgs, encodeProduceRequest } from '../../lib/kafka/produce-request.js';
import { avroSchema, userKey } from '../../lib/kafka/topics.js';
import { defaultOptions } from '../simulate.js';
import { simulate } from '../simulate/generator.js';

export interface IngestPathOptions {
  /** events per request body */
  batch: number;
  /** seconds of CPU to spend per measurement */
  seconds: number;
}

const PROJECT = '00000000-0000-4000-8000-00000000b0d7';
const SCHEMA_ID = 1;

/** µs of this process's CPU per event for `run` over `events` events, repeated for about `seconds`. */
function cpuPerEvent(seconds: number, events: number, run: () => void): number {
  run(); // warm: compiled and cached before it is timed
  let rounds = 0;
  const start = process.cpuUsage();
  let spent = 0;
  while (spent < seconds * 1e6) {
    run();
    rounds++;
    const { user, system } = process.cpuUsage(start);
    spent = user + system;
  }
  return Math.round((spent / (rounds * events)) * 100) / 100;
}

export async function ingestPathBench(options: IngestPathOptions) {
  const events: TrackedEventInput[] = simulate(defaultOptions(7, 2000, 2)).events.slice(0, options.batch);
  const body = JSON.stringify({ events });
  const secret = crypto.randomBytes(32);
  const keys = new Map<string, { ref: string; key: Buffer }>();
  for (const e of events) {
    if (!keys.has(e.user_id)) keys.set(e.user_id, { ref: userRef(secret, e.user_id), key: crypto.randomBytes(32) });
  }
  // The registry is only asked for the schema of an id: the events topic's, given here.
  const frames = new AvroFrames({
    getSchema: () => Promise.resolve(avro.Type.forSchema(JSON.parse(avroSchema('events')) as avro.Schema)),
  } as unknown as SchemaRegistry);
  await frames.know([SCHEMA_ID]);

  const parsed = JSON.parse(body) as { events: TrackedEventInput[] };
  const receivedAt = Date.now();
  const records = parsed.events.map((e) => toRecord(PROJECT, withoutPii(e), receivedAt));
  const sealed = records.map((r) => sealEvent(r, keys.get(r.user_id)!.ref, keys.get(r.user_id)!.key));
  const n = events.length;
  const request: ProduceArgs = {
    acks: -1,
    timeout: 30_000,
    topicData: [
      {
        topic: 'pi.events.v1',
        partitions: [
          {
            partition: 0,
            messages: sealed.map((s) => ({
              key: userKey(PROJECT, s.user_ref),
              value: frames.encode(SCHEMA_ID, s),
              timestamp: String(receivedAt),
            })),
          },
        ],
      },
    ],
  };
  const stages = {
    json_parse: cpuPerEvent(options.seconds, n, () => void JSON.parse(body)),
    character_walk: cpuPerEvent(options.seconds, n, () => problemAt(parsed, '')),
    validate: cpuPerEvent(options.seconds, n, () => validate('event-batch.json', parsed)),
    pii_filter_and_record: cpuPerEvent(options.seconds, n, () =>
      parsed.events.map((e) => toRecord(PROJECT, withoutPii(e), receivedAt)),
    ),
    seal: cpuPerEvent(options.seconds, n, () =>
      records.map((r) => sealEvent(r, keys.get(r.user_id)!.ref, keys.get(r.user_id)!.key)),
    ),
    avro_frame: cpuPerEvent(options.seconds, n, () => sealed.map((s) => frames.encode(SCHEMA_ID, s))),
    produce_request: cpuPerEvent(options.seconds, n, () => encodeProduceRequest(request)),
  };
  const whole = cpuPerEvent(options.seconds, n, () => {
    const input = JSON.parse(body) as { events: TrackedEventInput[] };
    problemAt(input, '');
    validate('event-batch.json', input);
    const at = Date.now();
    const messages = input.events.map((e) => {
      const r = toRecord(PROJECT, withoutPii(e), at);
      const { ref, key } = keys.get(r.user_id)!;
      return {
        key: userKey(PROJECT, ref),
        value: frames.encode(SCHEMA_ID, sealEvent(r, ref, key)),
        timestamp: String(at),
      };
    });
    encodeProduceRequest({
      ...request,
      topicData: [{ topic: 'pi.events.v1', partitions: [{ partition: 0, messages }] }],
    });
  });
  return {
    command: `npm run bench -- ingest-path --batch ${options.batch}`,
    batch: n,
    body_bytes: Buffer.byteLength(body),
    us_cpu_per_event: { ...stages, whole_path: whole },
    compression: await compression(options.seconds, n, encodeProduceRequest(request).buffer),
  };
}

type Compress = (bytes: Buffer) => unknown;

/**
 * What compressing a Produce request's record batch would save and cost: its size after each codec
 * and the CPU per event to compress it. gzip is Node's own; lz4 and zstd are measured where their
 * packages are installed (`npm i --no-save lz4-napi zstd-napi`): kafkajs needs a codec package for
 * each, which the service does not carry while they do not pay (docs/adr/0092).
 */
async function compression(seconds: number, events: number, bytes: Buffer) {
  const optional = async (name: string, pick: (module: Record<string, unknown>) => unknown) => {
    const module = (await import(name).catch(() => undefined)) as Record<string, unknown> | undefined;
    return module ? (pick(module) as Compress) : undefined;
  };
  const codecs: Record<string, Compress | undefined> = {
    gzip: (b) => zlib.gzipSync(b),
    lz4: await optional('lz4-napi', (m) => m.compressSync),
    zstd: await optional('zstd-napi', (m) => (b: Buffer) => (m.compress as Compress)(b)),
  };
  const out: Record<string, unknown> = { uncompressed_bytes_per_event: Math.round(bytes.length / events) };
  for (const [name, compress] of Object.entries(codecs)) {
    out[name] = compress
      ? {
          ratio: Math.round(((compress(bytes) as Buffer).length / bytes.length) * 1000) / 1000,
          us_cpu_per_event: cpuPerEvent(seconds, events, () => compress(bytes)),
        }
      : 'not installed';
  }
  return out;
}
