/**
 * The ingest path alone, in this process: a `POST /events/batch` body (simulator events, `batch`
 * per request) taken to the Kafka record bytes the API sends, stage by stage — JSON parse, the
 * character and depth walk (`problemAt`), schema validation, the PII filter and the record,
 * sealing, Avro framing — with the CPU each costs per event. A diagnosis beside the live figure
 * (`npm run bench -- live`, the API's CPU per event as users run it), never a headline: no
 * network, no Kafka, no Postgres (the user keys are made here, as the API keeps them).
 */
import crypto from 'node:crypto';
import avro from 'avsc';
import { problemAt } from '../../api/body.js';
import { validate } from '../../api/validate.js';
import { withoutPii } from '../../domain/pii-filter.js';
import { sealEvent, userRef } from '../../domain/sealed-user.js';
import { type TrackedEventInput, toRecord } from '../../domain/tracked-event.js';
import { AvroFrames, type SchemaRegistry } from '../../lib/kafka/registry.js';
import { avroSchema } from '../../lib/kafka/topics.js';
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
  };
  const whole = cpuPerEvent(options.seconds, n, () => {
    const input = JSON.parse(body) as { events: TrackedEventInput[] };
    problemAt(input, '');
    validate('event-batch.json', input);
    const at = Date.now();
    for (const e of input.events) {
      const r = toRecord(PROJECT, withoutPii(e), at);
      const { ref, key } = keys.get(r.user_id)!;
      frames.encode(SCHEMA_ID, sealEvent(r, ref, key));
    }
  });
  return {
    command: `npm run bench -- ingest-path --batch ${options.batch}`,
    batch: n,
    body_bytes: Buffer.byteLength(body),
    us_cpu_per_event: { ...stages, whole_path: whole },
  };
}
