import assert from 'node:assert/strict';
import { capturedLog } from './captured-log.js';
import { BatchEvents, type BatchFlushed, logBatches } from '../../processors/runtime/batch-events.js';

const flushed = (processor: string, to: number): BatchFlushed => ({
  processor,
  topic: 't',
  partition: 0,
  from: 0,
  to,
  messages: to + 1,
  deadLettered: 0,
  durationMs: 1,
});

describe('batch events', () => {
  it('hands each listener the events of its name until it unsubscribes', () => {
    const events = new BatchEvents();
    const seen: number[] = [];
    const off = events.on('batch.flushed', (e) => seen.push(e.to));
    events.on('batch.started', () => seen.push(-1));
    events.emit('batch.flushed', flushed('raw-sink', 4));
    off();
    events.emit('batch.flushed', flushed('raw-sink', 9));
    assert.deepEqual(seen, [4]);
  });

  it('when: resolves with the first matching event, rejects naming the event once the signal aborts', async () => {
    const events = new BatchEvents();
    const reached = events.when('batch.flushed', (e) => e.to >= 10);
    events.emit('batch.flushed', flushed('raw-sink', 4));
    events.emit('batch.flushed', flushed('raw-sink', 12));
    events.emit('batch.flushed', flushed('raw-sink', 20));
    assert.equal((await reached).to, 12);

    const stop = new AbortController();
    const never = events.when('batch.dead_lettered', () => true, stop.signal);
    stop.abort('the test gave up');
    await assert.rejects(never, /no batch\.dead_lettered event matched before the test gave up/);
  });

  it("logs one step's dead letters as errors, retriable failures as warnings, others as errors, flushes at debug", async () => {
    const events = new BatchEvents();
    const { log, lines } = capturedLog();
    const off = logBatches(events, 'raw-sink', log);
    const of = { topic: 't', partition: 2, firstOffset: 5, lastOffset: 7, durationMs: 3 };
    events.emit('batch.flushed', flushed('sessionize', 1)); // another step's: not this logger's
    events.emit('batch.flushed', { ...flushed('raw-sink', 7), counts: { chains: 2 } });
    events.emit('batch.dead_lettered', {
      processor: 'raw-sink',
      topic: 't',
      partition: 2,
      letters: [{ offset: 6, error: 'x' }],
    });
    events.emit('batch.retried', {
      processor: 'raw-sink',
      ...of,
      code: '57P01',
      retriable: true,
      error: new Error('a'),
    });
    events.emit('batch.retried', {
      processor: 'raw-sink',
      ...of,
      code: 'TypeError',
      retriable: false,
      error: new TypeError('b'),
    });
    off();
    events.emit('batch.flushed', flushed('raw-sink', 9));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg, l.to ?? l.offsets ?? l.code, l.chains]),
      [
        [20, 'flushed', 7, 2],
        [50, 'dead-lettered', [6], undefined],
        [40, 'batch failed; retried', '57P01', undefined],
        [50, 'batch failed; retried', 'TypeError', undefined],
      ],
    );
  });
});
