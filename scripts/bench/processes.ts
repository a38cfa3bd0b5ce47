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
  if (cmdline.includes('kafka.Kafka')) return 'kafka';
  if (cmdline.includes('quarkus-run.jar')) return 'registry';
  if (isStackPostgres(pid, cmdline)) return 'postgres';
  if (pid === process.pid) return 'bench';
  return undefined;
}

function readTicks(pid: number): { ticks: number; rssBytes: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    // PSS: shared pages (Postgres's shared buffers, the JVMs' code) split between their users,
    // so the sum over a name's processes is the memory they really hold.
    const pssKb = Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    return { ticks, rssBytes: pssKb * 1024 };
  } catch {
    return undefined;
  }
}

export interface ProcessSample {
  at: number;
  /** name → CPU in % of one core since the previous sample, and memory (PSS, summed) in MB */
  byName: Record<string, { cpu: number; rss_mb: number }>;
}

export class ProcessSampler {
  private previous = new Map<number, { ticks: number; at: number }>();

  sample(): ProcessSample {
    const at = Date.now();
    const byName: ProcessSample['byName'] = {};
    const seen = new Map<number, { ticks: number; at: number }>();
    for (const entry of fs.readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      const name = nameOf(pid);
      if (!name) continue;
      const now = readTicks(pid);
      if (!now) continue;
      const before = this.previous.get(pid);
      const cpu = before ? ((now.ticks - before.ticks) / TICKS_PER_S / ((at - before.at) / 1000)) * 100 : 0;
      const sum = (byName[name] ??= { cpu: 0, rss_mb: 0 });
      sum.cpu += cpu;
      sum.rss_mb += now.rssBytes / 2 ** 20;
      seen.set(pid, { ticks: now.ticks, at });
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
