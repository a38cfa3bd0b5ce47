import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Pool } from '../../lib/db.js';

/**
 * `npm run bench -- live --perf`: where the whole machine's CPU goes in each phase. `perf record`
 * samples every CPU (cpu-clock, 99 Hz: hardware counters are not offered on these machines); each
 * sample is put down to the service's process it fell in (ProcessSampler's names; Postgres
 * backends by the role whose session they serve) and to its function. The roles' node runs with
 * --perf-basic-prof, so JIT-compiled JavaScript is named. A diagnosis, like every profile: sampling costs ~1 % of a core, the symbol maps a little memory.
 */

const HZ = 99;

export interface ProcessProfile {
  /** cores this process kept busy over the phase, on average */
  cores: number;
  /** share of its samples: garbage collection, the kernel, JavaScript (JIT and builtins), the rest */
  kinds: Record<SymbolKind, number>;
  /** its functions with the largest shares of its samples */
  top: { symbol: string; share: number }[];
}

export interface PhaseProfile {
  seconds: number;
  /** cores busy in all, and the idle share of the machine */
  busy_cores: number;
  idle_share: number;
  processes: Record<string, ProcessProfile>;
}

type SymbolKind = 'gc' | 'kernel' | 'javascript' | 'native';

const GC =
  /v8::internal::(\w+::)*(Scavenge|Scavenger|Marking|MarkCompact|Sweeper|Evacuat|Heap::|GCTracer|Compactor|ArrayBufferSweeper|MinorM|RememberedSet|IncrementalMarking|ConcurrentMarking|Worklist|PagedSpace|FreeList|MemoryAllocator|Slot)/;

export function kindOf(symbol: string, dso: string): SymbolKind {
  if (dso.includes('kernel')) return 'kernel';
  if (GC.test(symbol)) return 'gc';
  if (symbol.startsWith('JS:') || symbol.startsWith('Builtins_') || symbol.startsWith('LazyCompile:')) {
    return 'javascript';
  }
  return 'native';
}

/** Whether `perf record` can sample every CPU here (it is installed and the kernel lets it). */
export function perfAvailable(): boolean {
  const probe = spawnSync('perf', ['record', '-e', 'cpu-clock', '-a', '-o', '/dev/null', '--', 'true'], {
    stdio: 'ignore',
  });
  return probe.status === 0;
}

/**
 * Postgres backends by the session that owns them: each role names its sessions (lib/role.ts), so
 * the profile tells the analytics sink's statements from the raw sink's, the API's and the workers'.
 */
export class BackendNames {
  private readonly names = new Map<number, string>();

  async poll(db: Pool): Promise<void> {
    const { rows } = await db.query<{ pid: number; application_name: string }>(
      `select pid, application_name from pg_stat_activity
       where datname = current_database() and application_name like 'pi-%'`,
    );
    for (const r of rows) this.names.set(r.pid, `postgres (${r.application_name})`);
  }

  get(pid: number): string | undefined {
    return this.names.get(pid);
  }
}

export class MachineProfiler {
  private recording?: { child: ChildProcess; file: string; phase: string; from: number };
  private readonly recorded: { file: string; phase: string; seconds: number }[] = [];

  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  start(phase: string): void {
    const file = path.join(this.dir, `${phase}.perf.data`);
    const child = spawn('perf', ['record', '-e', 'cpu-clock', '-F', String(HZ), '-a', '-q', '-o', file], {
      stdio: 'ignore',
    });
    this.recording = { child, file, phase, from: performance.now() };
  }

  async stop(): Promise<void> {
    const r = this.recording;
    if (!r) return;
    this.recording = undefined;
    // A perf that ended by itself (refused, out of disk) leaves what it wrote; waiting would hang.
    if (r.child.exitCode === null && r.child.signalCode === null) {
      const exited = once(r.child, 'exit');
      r.child.kill('SIGINT');
      await exited;
    }
    this.recorded.push({ file: r.file, phase: r.phase, seconds: (performance.now() - r.from) / 1000 });
  }

  /** Each recorded phase's profile, its samples named by `nameOfPid`. */
  async profiles(nameOfPid: (pid: number) => string | undefined): Promise<Record<string, PhaseProfile>> {
    await this.stop();
    const out: Record<string, PhaseProfile> = {};
    const pids = new Set<number>();
    for (const r of this.recorded) {
      const { profile, pids: seen } = await summarize(r.file, r.seconds, nameOfPid);
      out[r.phase] = profile;
      for (const pid of seen) pids.add(pid);
    }
    // The roles' symbol maps grow with the JIT's code and outlive the processes.
    for (const pid of pids) if (nameOfPid(pid)) fs.rmSync(`/tmp/perf-${pid}.map`, { force: true });
    return out;
  }
}

async function summarize(
  file: string,
  seconds: number,
  nameOfPid: (pid: number) => string | undefined,
): Promise<{ profile: PhaseProfile; pids: Set<number> }> {
  // Streamed, not buffered: a long phase's script runs to hundreds of MB. The exit is awaited from
  // the start, since it may come before the last line is read.
  const child = spawn('perf', ['script', '-i', file, '-F', 'comm,pid,ip,sym,dso'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = once(child, 'exit');
  const tally = new SampleTally(nameOfPid);
  for await (const text of createInterface({ input: child.stdout })) tally.add(text);
  await exited;
  fs.rmSync(file, { force: true });
  return { profile: tally.profile(seconds), pids: tally.pids };
}

const share = (n: number, of: number) => Math.round((1000 * n) / of) / 1000;

/** Samples of `perf script -F comm,pid,ip,sym,dso`, counted per process, kind and function (pure). */
export class SampleTally {
  private readonly counts = new Map<
    string,
    { samples: number; kinds: Map<SymbolKind, number>; symbols: Map<string, number> }
  >();
  private all = 0;
  private idle = 0;
  /** The pids of the samples, for their symbol maps to be removed once read. */
  readonly pids = new Set<number>();

  constructor(private readonly nameOfPid: (pid: number) => string | undefined) {}

  add(text: string): void {
    // "comm pid ip symbol (dso)": the command may hold spaces, the symbol too.
    const m = /^\s*(.*?)\s+(\d+)\s+[0-9a-f]+\s+(.*)\s+\((.*)\)\s*$/.exec(text);
    if (!m) return;
    const [, comm, pid, symbol, dso] = m as unknown as [string, string, string, string, string];
    this.all++;
    if (pid === '0') {
      this.idle++;
      return;
    }
    this.pids.add(Number(pid));
    const name = this.nameOfPid(Number(pid)) ?? `other (${comm})`;
    let c = this.counts.get(name);
    if (!c) this.counts.set(name, (c = { samples: 0, kinds: new Map(), symbols: new Map() }));
    c.samples++;
    const kind = kindOf(symbol, dso);
    c.kinds.set(kind, (c.kinds.get(kind) ?? 0) + 1);
    const named = symbol === '[unknown]' ? `[unknown] (${path.basename(dso)})` : symbol;
    c.symbols.set(named, (c.symbols.get(named) ?? 0) + 1);
  }

  profile(seconds: number): PhaseProfile {
    const processes: Record<string, ProcessProfile> = {};
    for (const [name, c] of [...this.counts].sort((a, b) => b[1].samples - a[1].samples)) {
      processes[name] = {
        cores: Math.round((100 * c.samples) / HZ / seconds) / 100,
        kinds: {
          gc: share(c.kinds.get('gc') ?? 0, c.samples),
          kernel: share(c.kinds.get('kernel') ?? 0, c.samples),
          javascript: share(c.kinds.get('javascript') ?? 0, c.samples),
          native: share(c.kinds.get('native') ?? 0, c.samples),
        },
        top: [...c.symbols]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15)
          .map(([symbol, n]) => ({ symbol: symbol.slice(0, 120), share: share(n, c.samples) })),
      };
    }
    return {
      seconds: Math.round(seconds * 10) / 10,
      busy_cores: Math.round((100 * (this.all - this.idle)) / HZ / seconds) / 100,
      idle_share: share(this.idle, this.all),
      processes,
    };
  }
}
