import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

export interface RunningService {
  baseUrl: string;
  streamUrl: string;
  adminKey: string;
  child: ChildProcess;
  /** The supervisor's lines, for a failure report. */
  log: string[];
  stop(): Promise<void>;
}

/**
 * The service exactly as a user starts it: `npm start` (scripts/start.ts, every role and worker
 * supervised), with the environment given (database, topic namespace, port). Resolves once it
 * printed its base URL and admin key. Its whole log (every role's) is appended to `logFile`.
 */
export async function startService(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  logFile = '.bench/service.log',
): Promise<RunningService> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  // Written synchronously: a bench that dies keeps the service's last lines (why it died may be there).
  const file = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const found: Record<string, string> = {};
  const ready = new Promise<void>((resolve, reject) => {
    const onLine = (line: string) => {
      fs.writeSync(file, `${line}\n`);
      log.push(line);
      if (log.length > 2000) log.shift();
      const m = /^\s+(base URL|stream URL|admin key)\s+(\S+)/.exec(line);
      if (m) found[m[1]!] = m[2]!;
      if (found['base URL'] && found['stream URL'] && found['admin key']) resolve();
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${log.slice(-30).join('\n')}`)));
  });
  await ready;
  return {
    baseUrl: found['base URL']!,
    streamUrl: found['stream URL']!,
    adminKey: found['admin key']!,
    child,
    log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      await exited;
    },
  };
}

/** `npm run replay` (every processor from offset 0), as an operator runs it, the service stopped. */
export async function replayAll(env: NodeJS.ProcessEnv) {
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/replay.ts'], {
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const m = /replayed (\d+) messages in ([\d.]+) s/.exec(stderr);
  if (!m) throw new Error(`replay: no summary in\n${stderr.slice(-2000)}`);
  const events = Number(m[1]);
  const seconds = Number(m[2]);
  return { events, seconds, events_per_s: Math.round(events / seconds) };
}
