import { pino, type Logger } from 'pino';

export type { Logger };

/** One JSON line per event; components add their own fields (processor, partition, offsets …). */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, fd: 1 | 2 = 1): Logger {
  return pino(
    { level, base: { pid: process.pid, ...bindings }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination(fd),
  );
}
