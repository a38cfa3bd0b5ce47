/**
 * The fault suite's own stack (scripts/local-stack, configured by scripts/faults.ts through the
 * environment before this module loads): its processes found by pid, paused, resumed, killed
 * and brought back.
 */
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

  pause(part: Part): void {
    const pid = this.pid(part);
    process.kill(pid, 'SIGSTOP');
    this.paused.add(pid);
  }

  resume(part: Part): void {
    const pid = this.pid(part);
    process.kill(pid, 'SIGCONT');
    this.paused.delete(pid);
  }

  /** kill -9, and waits until the process is gone (for Postgres: the postmaster; its backends notice and exit). */
  async kill(part: Part): Promise<void> {
    const pid = this.pid(part);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(50);
  }

  /** Every part this suite paused gets SIGCONT: a stopped process cannot be stopped by SIGTERM. */
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
