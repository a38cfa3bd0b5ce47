import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A service process we started, remembered by a pid file so `down` stops only what `up` started. */
export interface Daemon {
  name: string;
  pidFile: string;
  logFile: string;
}

/** The pid of the daemon we started, if that process still runs — and is still ours (a pid can be reused). */
export function readPid(daemon: Daemon): number | undefined {
  try {
    const pid = Number(fs.readFileSync(daemon.pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) && isOurs(pid, daemon) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Where /proc exists, the process must run exactly the command line we started. */
function isOurs(pid: number, daemon: Daemon): boolean {
  try {
    const started = fs.readFileSync(`${daemon.pidFile}.cmd`, 'utf8');
    const running = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    return JSON.stringify(running) === started;
  } catch {
    return !fs.existsSync('/proc');
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Starts a detached process that outlives this one; its output goes to the daemon's log file. */
export function startDaemon(
  daemon: Daemon,
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): number {
  const log = fs.openSync(daemon.logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  if (child.pid === undefined) throw new Error(`${daemon.name}: could not start ${command}`);
  child.unref();
  fs.writeFileSync(daemon.pidFile, `${child.pid}\n`);
  fs.writeFileSync(`${daemon.pidFile}.cmd`, JSON.stringify([command, ...args]));
  return child.pid;
}

/** SIGTERM, then SIGKILL if the process has not gone within the grace period. */
export async function stopDaemon(daemon: Daemon, graceMs = 30_000): Promise<boolean> {
  const pid = readPid(daemon);
  if (pid === undefined) {
    fs.rmSync(daemon.pidFile, { force: true });
    fs.rmSync(`${daemon.pidFile}.cmd`, { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  fs.rmSync(daemon.pidFile, { force: true });
  fs.rmSync(`${daemon.pidFile}.cmd`, { force: true });
  return true;
}

/**
 * Polls `probe` until it resolves true. Fails early when the process we started has died,
 * quoting the end of its log, so a broken start is reported in seconds, not at the timeout.
 */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  options: { timeoutMs: number; daemon?: Daemon },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    if (await probe().catch(() => false)) return;
    if (options.daemon && readPid(options.daemon) === undefined) {
      throw new Error(`${what}: the process exited during start-up\n${tail(options.daemon.logFile)}`);
    }
    if (Date.now() > deadline) {
      const log = options.daemon ? `\n${tail(options.daemon.logFile)}` : '';
      throw new Error(`${what}: not healthy after ${options.timeoutMs} ms${log}`);
    }
    await sleep(delay);
  }
}

export function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
