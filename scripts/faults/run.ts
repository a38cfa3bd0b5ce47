/**
 * `npm run faults` (scripts/faults.ts): the suite's stack and `npm start` against it, then each
 * fault in turn under a paced load with a bystander loop, verified against Postgres.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../lib/config.js';
import { type RunningService, startService } from '../bench/service.js';
import { now, startLoad, startProbes } from './load.js';
import type { Fault } from './plan.js';
import { broken, figures, table } from './report.js';
import { FaultStack, type Part } from './stack.js';
import { liftRateLimit, readStored, waitVisible } from './verify.js';

export interface FaultsOptions {
  faults: Fault[];
  /** messages per second offered during each fault's window */
  rate: number;
  users: number;
  /** seconds a paused part stays stopped */
  pauseSeconds: number;
  /** seconds of load before the fault and after it is cleared */
  leadSeconds: number;
  tailSeconds: number;
  out: string;
  serviceLog: string;
}

const log = (message: string) => console.error(`[faults] ${message}`);

/** The paced load: a client gives an answer 30 s, and a message 12 attempts. */
const loadOptions = (o: FaultsOptions, service: RunningService) => ({
  baseUrl: service.baseUrl,
  key: service.adminKey,
  users: o.users,
  rate: o.rate,
  timeoutMs: 30_000,
  attempts: 12,
  backoffMs: 1000,
});

/** Waits until GET /health says ok: the previous fault has healed before the next starts. */
async function healthy(baseUrl: string, timeoutMs: number): Promise<number> {
  const start = now();
  for (;;) {
    const ok = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return now() - start;
    if (now() - start > timeoutMs) throw new Error(`the service was not healthy again within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** Brings killed parts back; Postgres may refuse while its dying backends still hold shared memory. */
async function restart(stack: FaultStack): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await stack.up();
    } catch (err) {
      if (attempt === 3) throw err;
      log(`restart failed (${(err as Error).message.split('\n')[0]}); again in 2 s`);
      await sleep(2000);
    }
  }
}

/** Applies the fault and clears it; resolves when it is cleared (paused part resumed, killed part healthy). */
async function inflict(stack: FaultStack, fault: Fault, pauseSeconds: number): Promise<void> {
  if (fault === 'baseline') return;
  const [part, kind] = fault.split('-') as [Part, 'pause' | 'kill'];
  if (kind === 'pause') {
    stack.pause(part);
    await sleep(pauseSeconds * 1000);
    stack.resumeAll();
  } else {
    await stack.kill(part);
    await restart(stack);
  }
}

/** The supervisor's restart lines written to the service log since `from` (a byte offset). */
function restartsSince(file: string, from: number): string[] {
  const text = fs.readFileSync(file, 'utf8').slice(from);
  return [...text.matchAll(/\[([\w#]+)\]\s+exited \(([^)]*)\); restarting/g)].map((m) => `${m[1]}(${m[2]})`);
}

async function oneFault(
  o: FaultsOptions,
  stack: FaultStack,
  service: RunningService,
  projectId: string,
  run: string,
  fault: Fault,
  index: number,
) {
  const url = loadConfig().databaseUrl;
  const healedMs = await healthy(service.baseUrl, 180_000);
  const logFrom = fs.statSync(o.serviceLog).size;
  const name = `${run}-${index}-${fault}`;
  log(
    `${fault}: ${o.rate} POST /events per second from ${o.users} users (service healthy after ${Math.round(healedMs)} ms)`,
  );
  const load = startLoad({ ...loadOptions(o, service), run: name });
  // Reads that need only Postgres while Kafka or the registry is away; /health alone when Postgres is.
  const reads = fault.startsWith('postgres') ? ['/health'] : ['/health', '/analytics/features'];
  const probes = startProbes(service.baseUrl, service.adminKey, reads, 200);
  await sleep(o.leadSeconds * 1000);
  const faultAt = now();
  await inflict(stack, fault, o.pauseSeconds);
  const clearedAt = now();
  log(`${fault}: cleared after ${Math.round(clearedAt - faultAt)} ms`);
  // Recovery: every event acknowledged until now visible, timed while the load goes on.
  const afterClear = waitVisible(url, projectId, name, load.acked(), clearedAt, 180_000);
  await sleep(o.tailSeconds * 1000);
  const [sent, probed] = await Promise.all([load.stop(), probes.stop()]);
  const acked = sent.filter((s) => s.ackedAt !== undefined);
  const lastAckAt = acked.length > 0 ? Math.max(...acked.map((s) => s.ackedAt!)) : clearedAt;
  const afterLastAck = await waitVisible(
    url,
    projectId,
    name,
    acked.map((s) => s.messageId),
    lastAckAt,
    180_000,
  );
  const stored = await readStored(url, projectId, name);
  const visible = { afterClear: await afterClear, afterLastAck };
  const f = figures(sent, probed, stored, visible, restartsSince(o.serviceLog, logFrom));
  if (service.child.exitCode !== null) throw new Error(`npm start exited during ${fault}`);
  return { fault, fault_ms: Math.round(clearedAt - faultAt), figures: f };
}

/** Ten seconds of the load, until all of it is in session_events: the roles are past their start-up. */
async function warmUp(o: FaultsOptions, service: RunningService, projectId: string, run: string): Promise<void> {
  const name = `${run}-warmup`;
  const load = startLoad({ ...loadOptions(o, service), run: name });
  await sleep(10_000);
  const acked = (await load.stop()).filter((s) => s.ackedAt !== undefined).map((s) => s.messageId);
  const visible = await waitVisible(loadConfig().databaseUrl, projectId, name, acked, now(), 180_000);
  log(`warm-up: ${acked.length} acknowledged, all in session_events after ${visible.session_events ?? '—'} ms`);
}

export async function runFaults(o: FaultsOptions): Promise<number> {
  const config = loadConfig();
  const stack = new FaultStack(log);
  let service: RunningService | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      stack.resumeAll();
      if (service) {
        log('stopping the service');
        await Promise.race([service.stop(), sleep(60_000)]);
        if (service.child.exitCode === null) service.child.kill('SIGKILL');
      }
      log('stopping the stack');
      await stack.down();
    })());
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    log(
      `starting the stack (postgres :${config.embeddedPostgresPort}, kafka ${config.kafkaBrokers[0]}, registry ${config.schemaRegistryUrl})`,
    );
    await stack.up();
    fs.mkdirSync(path.dirname(o.serviceLog), { recursive: true });
    fs.writeFileSync(o.serviceLog, '');
    log(`starting the service (npm start, log in ${o.serviceLog})`);
    service = await startService({ LOG_LEVEL: 'warn' }, [], o.serviceLog);
    const projectId = await liftRateLimit(config.databaseUrl, service.adminKey);
    const run = `f${Date.now().toString(36)}`;
    await warmUp(o, service, projectId, run);
    const results: Awaited<ReturnType<typeof oneFault>>[] = [];
    for (const [i, fault] of o.faults.entries()) {
      results.push(await oneFault(o, stack, service, projectId, run, fault, i));
    }
    const report = {
      at: new Date().toISOString(),
      run,
      load: { rate: o.rate, users: o.users, lead_s: o.leadSeconds, tail_s: o.tailSeconds, pause_s: o.pauseSeconds },
      faults: results,
    };
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(table(results.map((r) => ({ fault: r.fault, figures: r.figures }))));
    console.log(`\nreport: ${o.out}`);
    const bad = results.filter((r) => broken(r.figures)).map((r) => r.fault);
    if (bad.length > 0) console.log(`LOST OR STORED TWICE: ${bad.join(', ')}`);
    return bad.length > 0 ? 1 : 0;
  } finally {
    await cleanup();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}
