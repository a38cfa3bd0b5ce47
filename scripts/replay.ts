/**
 * `npm run replay -- [--from <date>] [--only analytics,raw-sink]`: rebuilds the processors' tables
 * from Kafka — after a threshold change, a bug fix or a restore. The processors must be stopped
 * (their consumer groups empty). Without `--from` the tables they own are emptied, their stored
 * offsets removed, and they re-read pi.events.v1 from offset 0 (for analytics: the sessionizer's
 * group is deleted and the sink skips the chains written before). With `--from` only what the
 * events received at or after that instant gave is taken out, each partition restarts at the
 * first such event (for analytics: the sessionizer's, once the sink has applied every chain
 * written), and older work stays (docs/adr/0022-replay-from-a-date.md). Either way they run
 * here until they reach the end of the topic, printing progress.
 */
import { ConfigError, loadConfig } from '../lib/config.js';
import { type Pool, inTransaction } from '../lib/db.js';
import type { Admin } from '../lib/kafka/client.js';
import { createLogger } from '../lib/log.js';
import { type Services, connectServices, prepare } from '../lib/services.js';
import { groupId, topicName } from '../lib/kafka/topics.js';
import { resetAnalyticsFrom } from '../processors/analytics-sink/replay-reset.js';
import { PROCESSORS, PROCESSOR_NAMES, type ProcessorName, startProcessors } from '../processors/main.js';
import { parseOnly, runCli } from '../lib/cli.js';
import { analyticsLag, restartAnalyticsChain, topicEnds } from '../processors/analytics-sink/progress.js';
import { analyticsSink } from '../processors/analytics-sink/runner.js';
import { runPostgresSink } from '../processors/runtime/postgres-sink.js';
import { SESSIONIZE, sessionizeProgress } from '../processors/sessionize/runner.js';
import { type Offsets, parseFrom, remaining, restartOffsets } from '../processors/runtime/replay-plan.js';

const topicOf = (name: ProcessorName) => topicName(PROCESSORS[name].topic);

/** The consumer groups of a processor: the analytics sink's include the sessionizer before it. */
const groupsOf = (names: ProcessorName[]) =>
  names.flatMap((n) => (n === 'analytics' ? [groupId(SESSIONIZE), groupId(n)] : [groupId(n)]));

async function refuseWhileRunning(admin: Admin, names: ProcessorName[]): Promise<void> {
  const { groups } = await admin.describeGroups(groupsOf(names));
  const busy = groups.filter((g) => g.members.length > 0).map((g) => g.groupId);
  if (busy.length > 0) throw new ConfigError([`stop the running processors first: ${busy.join(', ')} have members`]);
}

async function storedOffsets(db: Pool, name: ProcessorName): Promise<Offsets> {
  const { rows } = await db.query<{ partition: number; next_offset: string }>(
    'select partition, next_offset from processor_offsets where processor = $1 and topic = $2',
    [name, topicOf(name)],
  );
  return new Map(rows.map((r) => [r.partition, Number(r.next_offset)]));
}

const asOffsets = (rows: { partition: number; offset: string }[]): Offsets =>
  new Map(rows.map((r) => [r.partition, Number(r.offset)]));

/** Per partition, the lowest offset of a raw event received at or after `from`. */
async function earliestStored(db: Pool, from: Date): Promise<Offsets> {
  const { rows } = await db.query<{ partition: number; offset: string }>(
    'select kafka_partition as partition, min(kafka_offset) as offset from raw_events where received_at >= $1 group by 1',
    [from],
  );
  return asOffsets(rows);
}

/**
 * Empties the processor's tables and forgets its offsets: it re-reads from offset 0. For
 * analytics the sessionizer's group is deleted (it re-reads pi.events.v1 from 0) and the sink
 * skips the chains written before, which the sessionizer writes again.
 */
async function resetAll(db: Pool, admin: Admin, name: ProcessorName): Promise<void> {
  await db.query(`truncate ${PROCESSORS[name].tables.join(', ')}`);
  await db.query('delete from processor_offsets where processor = $1 and topic = $2', [name, topicOf(name)]);
  await db.query('delete from dead_letters where processor = any($1)', [
    name === 'analytics' ? [name, SESSIONIZE] : [name],
  ]);
  if (name === 'analytics') await restartAnalyticsChain(admin, db);
}

async function waitUntil(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 500));
}

/**
 * Moves the processor's offsets back to the first event received at or after `from` and takes
 * out what those events gave. The offsets move first, in a transaction of their own: should the
 * reset stop half-way, every event not yet taken out is still stored and re-reading it changes
 * nothing, so running the same command again (or the processors) finishes the job.
 */
async function resetFrom(
  services: Services,
  admin: Admin,
  name: ProcessorName,
  from: Date,
  earliestStored: Offsets,
): Promise<string> {
  const { db } = services;
  const events = topicName('events');
  const byTime = asOffsets(await admin.fetchTopicOffsetsByTimestamp(events, from.getTime()));
  if (name === 'analytics') {
    // Chains written but not applied hold events the restart may not read again: apply them first.
    const sink = await runPostgresSink(analyticsSink, services);
    await waitUntil(async () => remaining(await topicEnds(admin, topicOf(name)), await storedOffsets(db, name)) === 0);
    await sink.stop();
    const restart = restartOffsets(await sessionizeProgress(admin), byTime, earliestStored);
    if (restart.size > 0) {
      await admin.setOffsets({
        groupId: groupId(SESSIONIZE),
        topic: events,
        partitions: [...restart].map(([partition, offset]) => ({ partition, offset: String(offset) })),
      });
    }
    for (const [partition, offset] of restart) {
      await db.query(
        'delete from dead_letters where processor = $1 and topic = $2 and partition = $3 and kafka_offset >= $4',
        [SESSIONIZE, events, partition, offset],
      );
    }
    // The sessionizer moved back first: should the reset stop half-way, the sink re-splits whatever
    // it still holds, and running the command again takes out the rest.
    const reset = await resetAnalyticsFrom(db, from);
    return `${name}: ${reset.events} events of ${reset.users} users taken out, ${reset.sessions} sessions re-split`;
  }
  const rawDeleted = await inTransaction(db, async (client) => {
    const { rows } = await client.query<{ partition: number; next_offset: string }>(
      'select partition, next_offset from processor_offsets where processor = $1 and topic = $2 for update',
      [name, events],
    );
    const stored = new Map(rows.map((r) => [r.partition, Number(r.next_offset)]));
    for (const [partition, next] of restartOffsets(stored, byTime, earliestStored)) {
      await client.query(
        'update processor_offsets set next_offset = $4, updated_at = now() where processor = $1 and topic = $2 and partition = $3',
        [name, events, partition, next],
      );
      await client.query(
        'delete from dead_letters where processor = $1 and topic = $2 and partition = $3 and kafka_offset >= $4',
        [name, events, partition, next],
      );
    }
    // raw_events is keyed by message id alone: the rows go with the offsets, in one transaction.
    return (await client.query('delete from raw_events where received_at >= $1', [from])).rowCount ?? 0;
  });
  return `${name}: ${rawDeleted} raw events taken out`;
}

async function main(options: { from?: string; only?: string }): Promise<void> {
  const config = loadConfig();
  const names = parseOnly(options.only, PROCESSOR_NAMES) ?? PROCESSOR_NAMES;
  const fromMs = parseFrom(options.from);
  const from = fromMs === undefined ? undefined : new Date(fromMs);
  const services = connectServices(
    config,
    createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, { service: 'replay' }),
  );
  await prepare(services);
  const admin = services.kafka.admin();
  await admin.connect();
  try {
    await refuseWhileRunning(admin, names);
    // Read before the raw-sink's reset deletes these rows; one topic, so they hold for every processor.
    const earliest = from === undefined ? new Map<number, number>() : await earliestStored(services.db, from);
    for (const name of names) {
      if (from === undefined) await resetAll(services.db, admin, name);
      else console.error(await resetFrom(services, admin, name, from, earliest));
    }
    const target = await topicEnds(admin, topicName('events'));
    // raw-sink: events left; analytics: events the sessionizer has not read, then chains not applied.
    const left = async () => {
      let sum = 0;
      for (const name of names) {
        sum +=
          name === 'analytics'
            ? await analyticsLag(admin, services.db, target)
            : remaining(target, await storedOffsets(services.db, name));
      }
      return sum;
    };
    const total = await left();
    console.error(
      `replaying ${total} messages into ${names.join(', ')}${from ? ` (received from ${from.toISOString()})` : ''}`,
    );
    // A processor started during the reset would have skipped what is being rebuilt.
    await refuseWhileRunning(admin, names);

    const started = Date.now();
    const running = await startProcessors(services, names);
    let applied = 0;
    for (;;) {
      const now = await left();
      applied = Math.max(applied, total - now);
      const seconds = (Date.now() - started) / 1000;
      console.error(`  ${applied}/${total} messages, ${Math.round(applied / Math.max(seconds, 0.001))}/s`);
      if (now === 0) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    await Promise.all(running.map((r) => r.stop()));
    console.error(`replayed ${total} messages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await admin.disconnect();
    await services.close();
  }
}

await runCli(
  {
    usage: 'npm run replay -- [--from <instant>] [--only raw-sink,analytics]',
    summary:
      "Rebuilds the processors' tables from pi.events.v1 (processors stopped): from offset 0, or only what events received since --from gave.",
    options: {
      from: { type: 'string', arg: 'instant', help: 'a date (2026-11-01) or an instant with its offset (…T00:00:00Z)' },
      only: { type: 'string', arg: 'names', help: `a subset of ${PROCESSOR_NAMES.join(', ')}` },
    },
  },
  ({ values }) => main(values),
);
