import { setTimeout as sleep } from 'node:timers/promises';
import { boundedError } from '../../domain/addresses.js';
import { type PoolClient, inTransaction } from '../../lib/db.js';
import type { WarehouseCredentials } from '../../domain/exports/credentials.js';
import { queryBatches } from '../../lib/db-cursor.js';
import { round } from '../../domain/metrics.js';
import { WAREHOUSE_TABLES, type WarehouseTable, type WarehouseTableName } from './tables.js';
import { type Cell, openWriter } from './writer.js';
import { targetPolicy } from '../../lib/targets.js';
import type { Services } from '../../lib/services.js';
import { SEALED, SecretBox } from '../../lib/secret-box.js';
import {
  type StoredExport,
  claimNextExport,
  exportHeartbeat,
  finishExport,
  inExportSnapshot,
  takeExportClaimTurn,
} from '../../store/warehouse-exports.js';

/** Rows per batch read from the source and written to the destination: memory holds one batch. */
export const EXPORT_BATCH_ROWS = 5000;
/** A running export whose heartbeat is older than this lost its worker and is claimed again. */
export const STALE_AFTER = '5 minutes';

/** A claimed export; the API admits only WAREHOUSE_TABLES' names. */
type ClaimedExport = StoredExport & { tables: WarehouseTableName[] };

/** The message of an error with the destination's secrets blanked out, whatever a driver put in it. */
export function publicError(err: unknown, credentials: WarehouseCredentials): string {
  let message = err instanceof Error ? err.message : String(err);
  if (!message) message = err instanceof Error ? err.name : 'unknown error';
  if (credentials.password) message = message.replaceAll(credentials.password, '***');
  return message;
}

/** The stored error of an export stopped at its deadline: what happened, and the setting that decided it. */
export const deadlineError = (deadlineMs: number) =>
  `the export ran longer than its deadline of ${Math.round(deadlineMs / 1000)} s (PI_WAREHOUSE_RUN_DEADLINE_MS) ` +
  'and was stopped; nothing was replaced at the destination. Queue it again, or export fewer tables at a time.';

/**
 * Claims a queued (or abandoned) export of a project that has no export running: one export per
 * project at a time, so a project with a silent destination or a long queue holds one runner and
 * the other projects' exports run beside it. Projects take turns: the next export is of the
 * project whose last export started longest ago (never first), the oldest of its queue, so a
 * project that queued many exports does not keep later projects waiting until its queue is empty.
 */
async function claim(services: Services): Promise<ClaimedExport | undefined> {
  return inTransaction(services.db, async (client) => {
    await takeExportClaimTurn(client);
    return (await claimNextExport(client, STALE_AFTER)) as ClaimedExport | undefined;
  });
}

/**
 * Copies the tables into the destination and commits. Past `deadline` the copy stops before its
 * next batch (a remote destination also hangs up mid-statement: WriterTarget.deadline); a commit
 * that started runs to its end, so a stopped export has replaced nothing.
 */
async function copyTables(
  services: Services,
  job: ClaimedExport,
  source: PoolClient,
  deadline: AbortSignal,
): Promise<Record<string, number>> {
  const writer = await openWriter(
    job.destination,
    {
      projectId: job.project_id,
      exportId: job.export_id,
      credentials: job.credentials,
      targets: targetPolicy(services.config.warehouseAllowHosts),
      timeoutMs: services.config.warehouseTimeoutMs,
      deadline,
    },
    services.config,
  );
  try {
    const counts: Record<string, number> = {};
    for (const name of job.tables) {
      const table = WAREHOUSE_TABLES[name];
      counts[name] = 0;
      deadline.throwIfAborted();
      await writer.replace(table);
      for await (const rows of queryBatches<Cell[]>(
        source,
        table.source,
        [job.project_id],
        EXPORT_BATCH_ROWS,
        'array',
      )) {
        deadline.throwIfAborted();
        await writer.append(table, rows.map(onTheWireRow(table)));
        counts[name] += rows.length;
        await exportHeartbeat(services.db, job.project_id, job.export_id);
      }
    }
    deadline.throwIfAborted();
    await writer.commit();
    return counts;
  } finally {
    await writer.close();
  }
}

async function runExport(services: Services, claimed: ClaimedExport): Promise<void> {
  const log = services.log.child({
    component: 'warehouse-export',
    project: claimed.project_id,
    export: claimed.export_id,
  });
  const started = performance.now();
  const { warehouseRunDeadlineMs } = services.config;
  const deadline = AbortSignal.timeout(warehouseRunDeadlineMs);
  let job = claimed;
  let outcome: { status: 'succeeded'; counts: Record<string, number> } | { status: 'failed'; error: string };
  try {
    const { password } = claimed.credentials;
    const box = new SecretBox(services.config.secretKeys);
    if (password !== undefined)
      job = {
        ...claimed,
        credentials: { ...claimed.credentials, password: box.open(password, SEALED.warehousePassword) },
      };
    outcome = { status: 'succeeded', counts: await copySnapshot(services, job, deadline) };
  } catch (err) {
    // Whatever the interrupted statement said, the cause is the deadline.
    const error = deadline.aborted ? deadlineError(warehouseRunDeadlineMs) : publicError(err, job.credentials);
    outcome = { status: 'failed', error };
  }
  // Stored and read back on every status GET: bounded (the full text goes to the log below).
  await finishExport(
    services.db,
    job.project_id,
    job.export_id,
    outcome.status === 'failed' ? { status: 'failed', error: boundedError(outcome.error) } : outcome,
  );
  const fields = { destination: job.destination, tables: job.tables, ms: Math.round(performance.now() - started) };
  if (outcome.status === 'succeeded') log.info({ ...fields, row_counts: outcome.counts }, 'warehouse export succeeded');
  else log.warn({ ...fields, error: outcome.error }, 'warehouse export failed');
}

/** Copies the export's tables from one snapshot of the source, so they agree with each other. */
async function copySnapshot(
  services: Services,
  job: ClaimedExport,
  deadline: AbortSignal,
): Promise<Record<string, number>> {
  return inExportSnapshot(services.db, (source) => copyTables(services, job, source, deadline));
}

/** Claims and runs exports one after another until none is left (or `keepGoing` says stop); how many ran. */
async function runUntilEmpty(services: Services, keepGoing: () => boolean): Promise<number> {
  let ran = 0;
  for (let job = keepGoing() && (await claim(services)); job; job = keepGoing() && (await claim(services))) {
    await runExport(services, job);
    ran++;
  }
  return ran;
}

/**
 * Runs queued exports until none is left (or `keepGoing` says stop), config.warehouseConcurrency at
 * a time, each runner claiming the next as soon as its export ends; returns how many ran.
 */
/**
 * A row as figures leave the service: every computed number (a double column) rounded to the 9
 * decimals the REST answers, the stream and webhooks show (domain/metrics.ts, `onTheWire`), so a
 * figure reads the same in the warehouse as in the API.
 */
const onTheWireRow = (table: WarehouseTable) => {
  const doubles = table.columns.map((c) => c.kind === 'double');
  return (row: Cell[]) => row.map((v, i) => (doubles[i] && typeof v === 'number' ? round(v) : v));
};

export async function runWarehouseExportPass(services: Services, keepGoing = () => true): Promise<number> {
  const runs = await Promise.all(
    Array.from({ length: services.config.warehouseConcurrency }, () => runUntilEmpty(services, keepGoing)),
  );
  return runs.reduce((a, b) => a + b, 0);
}

/**
 * config.warehouseConcurrency runners, each picking up queued exports and looking again every
 * config.pollIntervalMs, until stopped. Runners, not passes: a long or silent export holds its own
 * runner only, and the others pick up what is queued meanwhile. A stop ends each runner after its
 * current export.
 */
export function startWarehouseExportWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  const stopping = new AbortController();
  const log = services.log.child({ component: 'warehouse-export' });
  const runner = async () => {
    while (!stopped) {
      await runUntilEmpty(services, () => !stopped).catch((err: unknown) =>
        log.error({ err }, 'warehouse export runner failed; it looks again after the poll interval'),
      );
      await sleep(services.config.pollIntervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  };
  const runners = Array.from({ length: services.config.warehouseConcurrency }, runner);
  return Promise.resolve({
    async stop() {
      stopped = true;
      stopping.abort();
      await Promise.all(runners);
    },
  });
}
