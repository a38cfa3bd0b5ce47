import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import { Kafka, logLevel } from '../../lib/kafka/client.js';
import { findJava } from './java.js';
import { kafkaClasspath } from './maven.js';
import { stackPath } from './paths.js';
import { type Daemon, startDaemon, waitUntil } from './process.js';

const run = promisify(execFile);

export const kafkaDaemon: Daemon = {
  name: 'kafka',
  pidFile: stackPath('kafka.pid'),
  logFile: stackPath('kafka.log'),
};

const JVM = ['-Xms256m', '-Xmx512m', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-Djava.awt.headless=true'];

function serverProperties(port: number, controllerPort: number, dataDir: string): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=3',
    'num.network.threads=2',
    'num.io.threads=2',
    'background.threads=2',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=5',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=5',
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=false',
    'log.retention.hours=-1',
    'log.segment.bytes=134217728',
    '',
  ].join('\n');
}

function log4jProperties(): string {
  return [
    'log4j.rootLogger=INFO, stdout',
    'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
    'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
    'log4j.logger.kafka=INFO',
    'log4j.logger.org.apache.kafka=INFO',
    'log4j.logger.state.change.logger=WARN',
    'log4j.logger.kafka.request.logger=WARN',
    '',
  ].join('\n');
}

/** A KRaft cluster id: 16 random bytes, base64url, never starting with '-'. */
function clusterId(): string {
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export async function kafkaAnswers(broker: string): Promise<boolean> {
  const [host, port] = broker.split(':');
  const open = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
  if (!open) return false;
  const admin = new Kafka({
    brokers: [broker],
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 1000,
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0 && cluster.controller !== null;
  } finally {
    await admin.disconnect();
  }
}

export async function startKafka(port: number, controllerPort: number, log: (m: string) => void): Promise<void> {
  const classpath = await kafkaClasspath(log);
  const javaBin = await findJava(17);
  const dataDir = stackPath('kafka-data');
  const config = stackPath('kafka.properties');
  const log4j = stackPath('kafka-log4j.properties');
  fs.writeFileSync(config, serverProperties(port, controllerPort, dataDir));
  fs.writeFileSync(log4j, log4jProperties());
  const java = ['-cp', classpath, `-Dlog4j.configuration=file:${log4j}`];
  if (!fs.existsSync(`${dataDir}/meta.properties`)) {
    log('formatting Kafka storage (KRaft)');
    await run(javaBin, [...java, 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', config, '-g']);
  }
  log(`starting Kafka on 127.0.0.1:${port}`);
  startDaemon(kafkaDaemon, javaBin, [...JVM, ...java, 'kafka.Kafka', config]);
  await waitUntil('kafka', () => kafkaAnswers(`127.0.0.1:${port}`), { timeoutMs: 120_000, daemon: kafkaDaemon });
}
