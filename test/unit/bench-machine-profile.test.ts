import assert from 'node:assert/strict';
import { SampleTally, kindOf } from '../../scripts/bench/machine-profile.js';

// Lines as `perf script -F comm,pid,ip,sym,dso` prints them on this machine.
const lines = [
  '            node  8010      7f06b2e4910a Builtins_LoadIC_Megamorphic (/usr/bin/node)',
  '            node  8010           10d34c8 v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot> (/usr/bin/node)',
  '            node  8010      7f06b2e49200 JS:*chainChanges file:///work/main/processors/analytics-sink/chain-changes.ts:1:478 (/tmp/perf-8010.map)',
  '        postgres  8125           6a1b2c3 ExecInterpExpr (/work/main/.stack/pg/bin/postgres)',
  '        postgres  8125  ffffffff8222c21a copy_folio_from_iter_atomic ([kernel.kallsyms])',
  '         swapper     0  ffffffff81e0b5c1 default_idle ([kernel.kallsyms])',
  ' C2 CompilerThre  6210      7f14cdfd563d [unknown] (/usr/lib/jvm/java-17/lib/server/libjvm.so)',
  'not a sample line',
];

describe('the machine profile of the live bench (scripts/bench/machine-profile.ts)', () => {
  it('tells garbage collection, the kernel and JavaScript from the rest', () => {
    assert.equal(kindOf('v8::internal::ConcurrentMarking::RunMajor', '/usr/bin/node'), 'gc');
    assert.equal(kindOf('v8::internal::Sweeper::RawSweep', '/usr/bin/node'), 'gc');
    assert.equal(kindOf('v8::internal::JsonParser<unsigned char>::ScanJsonString', '/usr/bin/node'), 'native');
    assert.equal(kindOf('clear_page_erms', '[kernel.kallsyms]'), 'kernel');
    assert.equal(kindOf('JS:*arrayString /x/utils.js:23:21', '/tmp/perf-1.map'), 'javascript');
    assert.equal(kindOf('Builtins_FindOrderedHashMapEntry', '/usr/bin/node'), 'javascript');
    assert.equal(kindOf('_bt_compare', '/x/postgres'), 'native');
  });

  it('puts each sample down to its process by pid, idle apart, over the phase’s seconds', () => {
    const names = new Map([
      [8010, 'analytics'],
      [8125, 'postgres'],
    ]);
    const tally = new SampleTally((pid) => names.get(pid));
    for (const line of lines) tally.add(line);
    // At 99 Hz, a phase of 1/99 s holds one sample per busy core.
    const profile = tally.profile(1 / 99);
    assert.equal(profile.idle_share, 0.143); // 1 of 7 samples
    assert.equal(profile.busy_cores, 6);
    assert.deepEqual(Object.keys(profile.processes), ['analytics', 'postgres', 'other (C2 CompilerThre)']);
    const analytics = profile.processes.analytics!;
    assert.equal(analytics.cores, 3);
    assert.deepEqual(analytics.kinds, { gc: 0.333, kernel: 0, javascript: 0.667, native: 0 });
    assert.deepEqual(profile.processes.postgres!.kinds, { gc: 0, kernel: 0.5, javascript: 0, native: 0.5 });
    assert.deepEqual(profile.processes['other (C2 CompilerThre)']!.top, [
      { symbol: '[unknown] (libjvm.so)', share: 1 },
    ]);
    assert.deepEqual([...tally.pids].sort(), [6210, 8010, 8125]);
  });
});
