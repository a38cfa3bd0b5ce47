import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { Type } from 'avsc';
import { type TopicKey, avroSchema, topicName } from './topics.js';

export type { SchemaRegistry };

export function createRegistry(url: string): SchemaRegistry {
  return new SchemaRegistry({ host: url, retry: { retries: 5, initialRetryTimeInSecs: 0.2 } });
}

/**
 * Registers the topic's Avro schema under `<topic>-value` (BACKWARD) and returns its id.
 * Registering an unchanged schema returns the existing id, so this runs at every start-up.
 */
export async function registerValueSchema(registry: SchemaRegistry, key: TopicKey): Promise<number> {
  const { id } = await registry.register(
    { type: SchemaType.AVRO, schema: avroSchema(key) },
    { subject: `${topicName(key)}-value`, compatibility: COMPATIBILITY.BACKWARD },
  );
  return id;
}

/**
 * Confluent-framed Avro (magic byte 0, the schema id, the body), encoded and decoded without
 * waiting once the schema of an id is known. The registry client awaits a promise per message
 * and copies each encoded value three times; Avro was 7 % of the API's CPU at a burst.
 */
export class AvroFrames {
  private readonly types = new Map<number, Type>();
  /** Why the registry did not give an id's schema, as last asked. */
  private readonly refused = new Map<number, string>();
  /** Where values are encoded before being copied out at their size; grows to the largest. */
  private scratch = Buffer.allocUnsafe(64 * 1024);

  constructor(private readonly registry: SchemaRegistry) {}

  /**
   * Fetches the schemas of the ids not known yet (once each). An id the registry does not give
   * is left unknown: decoding its messages throws (they are dead letters), and the next call asks again.
   */
  async know(ids: Iterable<number>): Promise<void> {
    for (const id of new Set(ids)) {
      if (this.types.has(id)) continue;
      try {
        this.types.set(id, (await this.registry.getSchema(id)) as unknown as Type);
        this.refused.delete(id);
      } catch (err) {
        this.refused.set(id, (err as Error).message);
      }
    }
  }

  /** Fetches the schemas of the framed values' ids not known yet; unframed values are left to `decode`. */
  knowFramesOf(values: (Buffer | null)[]): Promise<void> {
    return this.know(values.flatMap((v) => (v !== null && v.length >= HEADER && v[0] === 0 ? [v.readInt32BE(1)] : [])));
  }

  encode(id: number, value: unknown): Buffer {
    const type = this.typeOf(id);
    for (;;) {
      this.scratch[0] = 0;
      this.scratch.writeInt32BE(id, 1);
      let end: number;
      try {
        end = type.encode(value, this.scratch, HEADER);
      } catch (err) {
        throw new Error(
          `not a value of schema ${id}: ${invalidPaths(type, value).join(', ') || (err as Error).message}`,
        );
      }
      if (end >= 0) return Buffer.from(this.scratch.subarray(0, end));
      this.scratch = Buffer.allocUnsafe(Math.max(2 * this.scratch.length, this.scratch.length - end));
    }
  }

  /** The value of a framed message whose schema is known (`know`, `knowFramesOf`); throws on bytes that are not one. */
  decode(frame: Buffer): unknown {
    if (frame.length < HEADER || frame[0] !== 0) throw new Error('not Confluent-framed Avro (magic byte 0)');
    const decoded: { value: unknown; offset: number } = this.typeOf(frame.readInt32BE(1)).decode(frame, HEADER);
    if (decoded.offset !== frame.length) {
      throw new Error(decoded.offset < 0 ? 'truncated Avro value' : 'trailing data after the Avro value');
    }
    return decoded.value;
  }

  private typeOf(id: number): Type {
    const type = this.types.get(id);
    if (!type) throw new Error(`schema ${id}: ${this.refused.get(id) ?? 'not fetched (AvroFrames.know)'}`);
    return type;
  }
}

/** The magic byte and the schema id. */
const HEADER = 5;

function invalidPaths(type: Type, value: unknown): string[] {
  const paths: string[] = [];
  type.isValid(value, { errorHook: (path) => paths.push(path.join('.') || '(the value)') });
  return paths;
}
