import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { type Logger, pino } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { ROLE_NODE_OPTIONS } from '../../lib/role.js';

/** One process of a role: `node <ROLE_NODE_OPTIONS> --import tsx <entry>`, restarted when it dies. */
export interface ChildSpec {
  /** e.g. api, processors, workers#2 */
  name: string;
  entry: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
}

export interface Supervised {
  name: string;
  pid(): number | undefined;
}

/** Restart delays: doubling from 1 s to 30 s; a child that ran a minute is forgiven its crashes. */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
const FORGIVEN_AFTER_MS = 60_000;
/** SIGTERM first; a child still alive after this gets SIGKILL. */
const STOP_GRACE_MS = 10_000;

/**
 * Runs each child, restarts a child that exits without being asked to (with backoff), and
 * prints every child's pino lines as one readable log, each prefixed with the child's name.
 */
export class Supervisor {
  private readonly children = new Map<string, ChildProcess>();
  private stopping = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pretty = prettyFactory({
    colorize: process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,component',
    singleLine: true,
  });

  constructor(private readonly say: (line: string) => void = (l) => process.stdout.write(`${l}\n`)) {}

  start(spec: ChildSpec): Supervised {
    let delay = FIRST_DELAY_MS;
    const run = () => {
      const startedAt = Date.now();
      // A process group of its own, so a terminal's Ctrl-C reaches the supervisor alone, which
      // stops the children in order; the IPC channel tells a child its supervisor is gone.
      // PI_NODE_ARGS: options for every role's node (e.g. --cpu-prof --cpu-prof-dir=…, which NODE_OPTIONS refuses).
      const nodeArgs = (process.env.PI_NODE_ARGS ?? '').split(' ').filter(Boolean);
      const args = [...ROLE_NODE_OPTIONS, ...nodeArgs, '--import', 'tsx', spec.entry, ...(spec.args ?? [])];
      const child = spawn(process.execPath, args, {
        env: { ...process.env, ...spec.env },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        detached: true,
      });
      this.children.set(spec.name, child);
      this.relay(spec.name, child);
      child.once('exit', (code, signal) => {
        this.children.delete(spec.name);
        if (this.stopping) return;
        if (Date.now() - startedAt > FORGIVEN_AFTER_MS) delay = FIRST_DELAY_MS;
        this.say(`${label(spec.name)} exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!this.stopping) run();
        }, delay);
        this.timers.add(timer);
        delay = Math.min(MAX_DELAY_MS, delay * 2);
      });
    };
    run();
    return { name: spec.name, pid: () => this.children.get(spec.name)?.pid };
  }

  /** Stops every child (SIGTERM, then SIGKILL after the grace period) and waits for their exits. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(
      [...this.children.values()].map(async (child) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(kill);
      }),
    );
  }

  /** A logger whose lines join the children's in the one readable log. */
  logger(name: string, level: string): Logger {
    return pino({ level, base: {} }, { write: (line: string) => this.print(name, line) });
  }

  private relay(name: string, child: ChildProcess): void {
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => this.print(name, line));
    }
  }

  /** pino lines are made readable; anything else (a crash's stack trace) is passed as it is. */
  private print(name: string, line: string): void {
    const text = line.startsWith('{') ? this.pretty(line).trimEnd() : line.trimEnd();
    this.say(`${label(name)} ${text}`);
  }
}

const label = (name: string) => `[${name}]`.padEnd(14);
