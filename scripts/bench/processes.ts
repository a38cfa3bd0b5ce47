import fs from 'node:fs';

/**
 * CPU and memory of the processes that make up the service, read from /proc: each process is
 * named by what it runs (the roles by their entry file, Kafka, the registry, Postgres), and
 * processes of one name are summed (Postgres backends, API cluster workers).
 */
const TICKS_PER_S = 100; // USER_HZ on Linux

const cmdlineOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

const parentOf = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
};

/** The embedded server's postmaster runs from the stack's folder; its backends are its children. */
const isStackPostgres = (pid: number, cmdline: string) =>
  /(^|\/)postgres( |$)|^postgres: /.test(cmdline) &&
  (cmdline.includes('pi-stack') || cmdlineOf(parentOf(pid)).includes('pi-stack'));

function nameOf(pid: number): string | undefined {
  const cmdline = cmdlineOf(pid);
  if (!cmdline) return undefined;
  if (cmdline.includes('api/main.ts')) return 'api';
  // npm start runs the analytics sink in a process of its own (`--only analytics-sink`).
  if (cmdline.includes('processors/main.ts'))
    return /--only analytics-sink( |$)/.test(cmdline) ? 'analytics' : 'processors';
  if (cmdline.includes('workers/main.ts')) return 'workers';
  if (cmdline.includes('scripts/start.ts')) return 'supervisor';
  if (cmdline.includes('scripts/replay.ts')) return 'replay';
  if (cmdline.includes('kafka.Kafka')) return 'kafka';
  if (cmdline.includes('quarkus-run.jar')) return 'registry';
  if (isStackPostgres(pid, cmdline)) return 'postgres';
  if (pid === process.pid) return 'bench';
  return undefined;
}

function readTicks(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return undefined;
  }
}

/**
 * PSS: shared pages (Postgres's shared buffers, the JVMs' code) split between their users, so the
 * sum over a name's processes is the memory they really hold.
 */
function readPssBytes(pid: number): number | undefined {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * The kernel walks every page table of a process to sum its PSS: read each second for every
 * process, it took ~10 % of a core of the machine the bench measures (a perf profile of the paced
 * phase, docs/performance.md). Memory is read this often; CPU every sample.
 */
const PSS_EVERY_MS = 10_000;

export interface ProcessSample {
  at: number;
  /** name → CPU in % of one core since the previous sample, and memory (PSS, summed) in MB */
  byName: Record<string, { cpu: number; rss_mb: number }>;
}

interface Seen {
  name: string;
  ticks: number;
  at: number;
  pssBytes: number;
  pssAt: number;
}

export class ProcessSampler {
  private previous = new Map<number, Seen>();
  /** Every process sampled so far, by pid: gone ones too (a profile names its samples with them). */
  private readonly names = new Map<number, string>();

  nameOf(pid: number): string | undefined {
    return this.names.get(pid);
  }

  sample(): ProcessSample {
    const at = Date.now();
    const byName: ProcessSample['byName'] = {};
    const seen = new Map<number, Seen>();
    for (const entry of fs.readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      const before = this.previous.get(pid);
      const name = before?.name ?? nameOf(pid);
      if (!name) continue;
      const ticks = readTicks(pid);
      if (ticks === undefined) continue;
      const fresh = !before || at - before.pssAt >= PSS_EVERY_MS;
      const pssBytes = fresh ? readPssBytes(pid) : before.pssBytes;
      if (pssBytes === undefined) continue;
      const cpu = before ? ((ticks - before.ticks) / TICKS_PER_S / ((at - before.at) / 1000)) * 100 : 0;
      const sum = (byName[name] ??= { cpu: 0, rss_mb: 0 });
      sum.cpu += cpu;
      sum.rss_mb += pssBytes / 2 ** 20;
      seen.set(pid, { name, ticks, at, pssBytes, pssAt: fresh ? at : before.pssAt });
      this.names.set(pid, name);
    }
    this.previous = seen;
    for (const v of Object.values(byName)) {
      v.cpu = Math.round(v.cpu);
      v.rss_mb = Math.round(v.rss_mb);
    }
    return { at, byName };
  }
}

/** Mean CPU and peak RSS per name over a run's samples (the first sample has no CPU yet). */
export function summarizeProcesses(samples: ProcessSample[]): Record<string, { cpu_mean: number; rss_max_mb: number }> {
  const out: Record<string, { cpu_mean: number; rss_max_mb: number }> = {};
  const counts: Record<string, number> = {};
  for (const s of samples.slice(1)) {
    for (const [name, v] of Object.entries(s.byName)) {
      const o = (out[name] ??= { cpu_mean: 0, rss_max_mb: 0 });
      o.cpu_mean += v.cpu;
      o.rss_max_mb = Math.max(o.rss_max_mb, v.rss_mb);
      counts[name] = (counts[name] ?? 0) + 1;
    }
  }
  for (const [name, o] of Object.entries(out)) o.cpu_mean = Math.round(o.cpu_mean / counts[name]!);
  return out;
}

/**
 * CPU time each process spent per event of a phase, in µs, and their total: a phase that ends once
 * its events are all applied (drained, the workers' passes over) holds every cost they caused, so
 * its mean CPU × length ÷ events is their cost, whatever the lag was meanwhile. At a rate r a
 * process needs cost × r ÷ 10⁶ cores.
 */
export function cpuPerEvent(
  summary: Record<string, { cpu_mean: number }>,
  seconds: number,
  events: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  if (events <= 0) return out;
  let total = 0;
  for (const [name, { cpu_mean }] of Object.entries(summary)) {
    const us = ((cpu_mean / 100) * seconds * 1e6) / events;
    out[name] = Math.round(us);
    total += us;
  }
  out.total = Math.round(total);
  return out;
}
