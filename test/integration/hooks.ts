/**
 * Integration tests run against the real stack: `scripts/stack` parts are started if they are
 * not running (and stopped again at the end only if this run started them). Each run gets its
 * own database (dropped and re-created) and its own topic namespace, so runs never see each
 * other's data.
 */
import pg from 'pg';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { createKafka } from '../../lib/kafka.js';
import { createLogger } from '../../lib/log.js';
import { connectServices, prepare } from '../../lib/services.js';
import { stackDown, stackStatus, stackUp } from '../../scripts/local-stack/stack.js';

let startedByTests: Awaited<ReturnType<typeof stackUp>> = [];

export async function mochaGlobalSetup(): Promise<void> {
  const base = loadConfig();
  startedByTests = await stackUp(base, (m) => console.error(`[stack] ${m}`));

  const testDb = `${databaseName(base.databaseUrl)}_test`;
  if (!testDb.includes('test')) throw new Error(`refusing to recreate ${testDb}: not a test database`);
  const admin = new pg.Client({ connectionString: withDatabase(base.databaseUrl, 'postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${pg.escapeIdentifier(testDb)} with (force)`);
  await admin.query(`create database ${pg.escapeIdentifier(testDb)}`);
  await admin.end();

  process.env.DATABASE_URL = withDatabase(base.databaseUrl, testDb);
  process.env.PI_TEST_RUN = `test-${Date.now().toString(36)}`;
  process.env.PI_TOPIC_NAMESPACE = process.env.PI_TEST_RUN;
  process.env.LOG_LEVEL ??= 'warn';
  const config = loadConfig();
  const services = connectServices(config, createLogger('warn'), 2);
  await prepare(services);
  await services.close();
}

export async function mochaGlobalTeardown(): Promise<void> {
  const config = loadConfig();
  const admin = createKafka(config, createLogger('error')).admin();
  await admin.connect();
  const ours = (await admin.listTopics()).filter((t) => t.startsWith(process.env.PI_TEST_RUN!));
  if (ours.length > 0) await admin.deleteTopics({ topics: ours });
  await admin.disconnect();
  await stackDown(config, (m) => console.error(`[stack] ${m}`), startedByTests);
  // Never leave behind a process this run started.
  const left = (await stackStatus(config)).filter((s) => startedByTests.includes(s.name) && s.state !== 'down');
  if (left.length > 0) throw new Error(`still running after the tests: ${left.map((s) => s.name).join(', ')}`);
}
