import assert from 'node:assert/strict';
import avro from 'avsc';
import { AvroFrames, type SchemaRegistry } from '../../lib/kafka/registry.js';

const schema = avro.Type.forSchema({
  type: 'record',
  name: 'Thing',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'n', type: 'long' },
    { name: 'blob', type: 'bytes' },
  ],
});

/** A registry that knows schema 7 only (the frames' logic is under test, not the registry). */
function registry(): SchemaRegistry & { asked: number[] } {
  const asked: number[] = [];
  return Object.assign(
    {
      getSchema: (id: number) => {
        asked.push(id);
        return id === 7 ? Promise.resolve(schema) : Promise.reject(new Error(`Schema ${id} not found`));
      },
    } as unknown as SchemaRegistry,
    { asked },
  );
}

describe('Avro frames (Confluent wire format, without a promise per message)', () => {
  it('encodes as the registry client does: magic byte 0, the schema id, the Avro body', async () => {
    const frames = new AvroFrames(registry());
    await frames.know([7]);
    const value = { id: 'a', n: 42, blob: Buffer.from([1, 2, 3]) };
    const frame = frames.encode(7, value);
    assert.deepEqual(frame, Buffer.concat([Buffer.from([0, 0, 0, 0, 7]), schema.toBuffer(value)]));
    assert.deepEqual(plain(frames.decode(frame)), value);
  });

  it('grows its scratch buffer for a value larger than it', async () => {
    const frames = new AvroFrames(registry());
    await frames.know([7]);
    const value = { id: 'x'.repeat(200_000), n: -1, blob: Buffer.alloc(100_000, 9) };
    const frame = frames.encode(7, value);
    assert.deepEqual(plain(frames.decode(frame)), value);
    // Frames are copies: the next encoding does not change an earlier one.
    const small = frames.encode(7, { id: 'b', n: 1, blob: Buffer.alloc(0) });
    assert.deepEqual(plain(frames.decode(frame)), value);
    assert.deepEqual(plain(frames.decode(small)), { id: 'b', n: 1, blob: Buffer.alloc(0) });
  });

  it('asks the registry once per id, and says which fields a value gets wrong', async () => {
    const known = registry();
    const frames = new AvroFrames(known);
    await frames.knowFramesOf([frameOf(7), frameOf(7), null, Buffer.from('{"not":"avro"}')]);
    await frames.know([7]);
    assert.deepEqual(known.asked, [7]);
    assert.throws(() => frames.encode(7, { id: 'a', n: 'many', blob: Buffer.alloc(0) }), /schema 7: .*n/);
  });

  it('refuses what is not a frame of a known schema, truncated or followed by more bytes', async () => {
    const known = registry();
    const frames = new AvroFrames(known);
    await frames.knowFramesOf([frameOf(7), frameOf(9)]);
    const frame = frames.encode(7, { id: 'abc', n: 5, blob: Buffer.from([1]) });
    assert.throws(() => frames.decode(Buffer.from('{"json":1}')), /magic byte/);
    assert.throws(() => frames.decode(frameOf(9)), /schema 9: Schema 9 not found/);
    assert.throws(() => frames.decode(frame.subarray(0, frame.length - 2)), /truncated/);
    assert.throws(() => frames.decode(Buffer.concat([frame, Buffer.from([0])])), /trailing/);
    // An id the registry refused is asked again next time.
    await frames.knowFramesOf([frameOf(9)]);
    assert.deepEqual(known.asked, [7, 9, 9]);
  });
});

/** avsc decodes records as instances of a class of their own. */
const plain = (value: unknown) => ({ ...(value as object) });

function frameOf(id: number): Buffer {
  const frame = Buffer.alloc(6);
  frame.writeInt32BE(id, 1);
  return frame;
}
