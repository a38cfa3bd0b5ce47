/**
 * `npm run replay -- [--only analytics,raw-sink]`: rebuilds the processors' tables from Kafka
 * offset 0 — after a threshold change, a bug fix or a restore. The processors must be stopped
 * (their consumer groups empty); the tables they own are emptied, their stored offsets removed,
 * and they run here until they reach the end of the topic, printing progress.
 */
import { ConfigError, loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { connectServices, prepare } from '../lib/services.js';
import { groupId, topicName } from '../lib/topics.js';
import { PROCESSORS, type ProcessorName, isSink, parseOnly, startProcessors } from '../processors/main.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const only = parseOnly(process.argv.slice(2));
  if (only?.some((n) => !isSink(n)))
    throw new ConfigError([`--only: replay rebuilds ${Object.keys(PROCESSORS).join(', ')}`]);
  const names = only?.filter(isSink) ?? (Object.keys(PROCESSORS) as ProcessorName[]);
  const services = connectServices(
    config,
    createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, { service: 'replay' }),
  );
  await prepare(services);
  const admin = services.kafka.admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups(names.map((n) => groupId(n)));
    const busy = groups.filter((g) => g.members.length > 0).map((g) => g.groupId);
    if (busy.length > 0) throw new ConfigError([`stop the running processors first: ${busy.join(', ')} have members`]);

    const ends = new Map<string, number>();
    for (const name of names) {
      const topic = topicName(PROCESSORS[name].topic);
      const offsets = await admin.fetchTopicOffsets(topic);
      ends.set(
        name,
        offsets.reduce((sum, o) => sum + Number(o.high) - Number(o.low), 0),
      );
      await services.db.query(`truncate ${PROCESSORS[name].tables.join(', ')}`);
      await services.db.query('delete from processor_offsets where processor = $1 and topic = $2', [name, topic]);
      await services.db.query('delete from dead_letters where processor = $1', [name]);
    }
    const total = [...ends.values()].reduce((a, b) => a + b, 0);
    console.error(`replaying ${total} messages into ${names.join(', ')}`);

    const started = Date.now();
    const running = await startProcessors(services, names);
    for (;;) {
      const { rows } = await services.db.query<{ applied: number }>(
        `select coalesce(sum(o.next_offset), 0)::bigint as applied from processor_offsets o
         where o.processor = any($1) and o.topic = any($2)`,
        [names, names.map((n) => topicName(PROCESSORS[n].topic))],
      );
      const applied = Number(rows[0]!.applied);
      const seconds = (Date.now() - started) / 1000;
      console.error(`  ${applied}/${total} messages, ${Math.round(applied / Math.max(seconds, 0.001))}/s`);
      if (applied >= total) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    await Promise.all(running.map((r) => r.stop()));
    console.error(`replayed ${total} messages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await admin.disconnect();
    await services.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
