import { execFile } from 'node:child_process';
import { once } from 'node:events';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Services } from '../../lib/services.js';
import { findJava } from '../local-stack/java.js';
import { kafkaClasspath } from '../local-stack/maven.js';

export interface RawLimits {
  records: number;
  kafka_producer_perf: { records_per_s: number; record_bytes: number; acks: string };
  kafka_consumer_perf: { records_per_s: number };
  postgres_copy_raw_events: { rows_per_s: number; seconds: number };
}

/**
 * The machine's raw limits: Kafka's own ProducerPerformance and ConsumerPerformance (records of
 * 300 bytes, acks=all, idempotent, as the API produces) on a topic of their own, and Postgres COPY
 * of raw-event rows from a CSV file into a scratch copy of raw_events.
 */
export async function rawLimits(services: Services, records: number, namespace: string): Promise<RawLimits> {
  const { config, db } = services;
  const java = await findJava(17);
  const classpath = await kafkaClasspath(() => undefined);
  const tool = async (main: string, args: string[]) =>
    (await promisify(execFile)(java, ['-Xmx512m', '-cp', classpath, main, ...args], { maxBuffer: 64 * 1024 * 1024 }))
      .stdout;
  const topic = `${namespace}.perf-${Date.now().toString(36)}`;
  const brokers = config.kafkaBrokers.join(',');
  const admin = services.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: config.topicPartitions, replicationFactor: 1 }] });
  try {
    const produced = await tool('org.apache.kafka.tools.ProducerPerformance', [
      '--topic',
      topic,
      '--num-records',
      String(records),
      '--record-size',
      '300',
      '--throughput',
      '-1',
      '--producer-props',
      `bootstrap.servers=${brokers}`,
      'acks=all',
      'enable.idempotence=true',
    ]);
    // Last line: "N records sent, X records/sec (Y MB/sec), …".
    const producer = /([\d.]+) records\/sec/.exec(produced.trim().split('\n').at(-1)!)![1]!;
    const consumed = await tool('org.apache.kafka.tools.ConsumerPerformance', [
      '--bootstrap-server',
      brokers,
      '--topic',
      topic,
      '--messages',
      String(records),
      '--timeout',
      '60000',
    ]);
    // CSV: start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, …
    const consumer = consumed.trim().split('\n').at(-1)!.split(',')[5]!.trim();
    return {
      records,
      kafka_producer_perf: { records_per_s: Number(producer), record_bytes: 300, acks: 'all' },
      kafka_consumer_perf: { records_per_s: Number(consumer) },
      postgres_copy_raw_events: await copyLimit(db, records, namespace),
    };
  } finally {
    await admin.deleteTopics({ topics: [topic] });
    await admin.disconnect();
  }
}

async function copyLimit(db: Services['db'], records: number, namespace: string) {
  const file = `/tmp/${namespace}-copy-${process.pid}.csv`;
  const projectId = crypto.randomUUID();
  const out = fs.createWriteStream(file);
  for (let i = 0; i < records; i++) {
    const line = `${projectId},copy-${i},user-${i % 20000},page_view,"{""page"": ""/p/${i % 50}""}",2026-11-20 12:00:00+00,2026-11-20 12:00:01+00,0,${i}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const table = `copy_bench_${process.pid}`;
  await db.query(`create table ${table} (like raw_events including all)`);
  try {
    const start = performance.now();
    await db.query(
      `copy ${table} (project_id, message_id, user_id, event, properties, occurred_at, received_at, kafka_partition,
                      kafka_offset) from '${file}' with (format csv)`,
    );
    const seconds = (performance.now() - start) / 1000;
    return { rows_per_s: Math.round(records / seconds), seconds: Math.round(seconds * 10) / 10 };
  } finally {
    await db.query(`drop table ${table}`);
    fs.rmSync(file);
  }
}
