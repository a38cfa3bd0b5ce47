/**
 * The fault suite's own stack (scripts/local-stack, configured by scripts/faults.ts through the
 * environment before this module loads): its processes found by pid, paused, resumed, killed
 * and brought back.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../lib/config.js';
import { kafkaDaemon } from '../local-stack/kafka.js';
import { EmbeddedPostgres } from '../local-stack/postgres.js';
import { isAlive, readPid } from '../local-stack/process.js';
import { registryDaemon } from '../local-stack/registry.js';
import { stackDown, stackUp } from '../local-stack/stack.js';

export const PARTS = ['kafka', 'registry', 'postgres'] as const;
export type Part = (typeof PARTS)[number];

type Log = (message: string) => void;

export class FaultStack {
  private readonly config = loadConfig();
  private readonly postgres = new EmbeddedPostgres(this.config.embeddedPostgresPort, () => undefined);
  /** Processes this suite stopped with SIGSTOP and has not resumed yet. */
  private readonly paused = new Set<number>();

  constructor(private readonly log: Log) {}

  /** Starts every part that does not answer and waits until all are healthy. */
  async up(): Promise<void> {
    await stackUp(this.config, this.log);
  }

  pid(part: Part): number {
    const pid =
      part === 'kafka'
        ? readPid(kafkaDaemon)
        : part === 'registry'
          ? readPid(registryDaemon)
          : this.postgres.postmasterPid();
    if (pid === undefined) throw new Error(`${part} is not running`);
    return pid;
  }

  /**
   * SIGSTOP to the part's process and its children: Postgres's backends are processes of their
   * own, which would go on serving open connections with only the postmaster stopped.
   */
  pause(part: Part): void {
    for (const pid of withChildren(this.pid(part))) {
      process.kill(pid, 'SIGSTOP');
      this.paused.add(pid);
    }
  }

  /** kill -9, and waits until the process is gone (for Postgres: the postmaster; its backends notice and exit). */
  async kill(part: Part): Promise<void> {
    const pid = this.pid(part);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(50);
  }

  /** Every process this suite paused gets SIGCONT (a stopped process cannot be stopped by SIGTERM). */
  resumeAll(): void {
    for (const pid of this.paused) {
      if (isAlive(pid)) process.kill(pid, 'SIGCONT');
    }
    this.paused.clear();
  }

  async down(): Promise<void> {
    this.resumeAll();
    await stackDown(this.config, this.log);
  }
}

/** `pid` and its descendants, from /proc (a process's parent is the 4th field of its stat). */
function withChildren(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]!) ?? []));
  return all;
}
