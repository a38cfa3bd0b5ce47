import assert from 'node:assert/strict';
import { cpuPerEvent } from '../../scripts/bench/processes.js';

describe('the live bench’s cost per event (scripts/bench/processes.ts)', () => {
  it('is each process’s CPU over the phase divided by its events, in µs, with their total', () => {
    // 50 % of a core for 120 s and 25 % for 120 s, over 300,000 events: 200 µs and 100 µs each.
    const cost = cpuPerEvent({ postgres: { cpu_mean: 50 }, api: { cpu_mean: 25 } }, 120, 300_000);
    assert.deepEqual(cost, { postgres: 200, api: 100, total: 300 });
  });

  it('gives nothing for a phase without events (a kept history)', () => {
    assert.deepEqual(cpuPerEvent({ postgres: { cpu_mean: 50 } }, 10, 0), {});
  });
});
