/**
 * `npm start`: the whole service on one machine — stack up, migrate, topics and schemas, the API
 * and every processor in this process, and a demo project with an admin key. Ctrl-C stops what
 * this run started and leaves alone what was already running.
 */
import fs from 'node:fs';
import { startApi } from '../api/server.js';
import { createKey, ensureProject, resolveKey } from '../lib/api-keys.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { connectServices, prepare } from '../lib/services.js';
import { startProcessors, startWorkers } from '../processors/main.js';
import { stackPath } from './local-stack/paths.js';
import { defaultOptions, sendSimulation } from './simulate.js';
import { stackDown, stackUp } from './local-stack/stack.js';

const DEMO_PROJECT = 'demo';

async function demoKey(db: import('../lib/db.js').Pool): Promise<string> {
  // The plaintext key is kept only in the git-ignored .stack folder, so restarts reuse it.
  const file = stackPath('demo-admin-key');
  const saved = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  if (saved && (await resolveKey(db, saved))) return saved;
  const projectId = await ensureProject(db, DEMO_PROJECT);
  const { key } = await createKey(db, projectId, ['admin'], 'demo admin key (npm start)');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, { service: 'pi' });
  const started = await stackUp(config, (m) => log.info(m));
  const services = connectServices(config, log);
  await prepare(services);
  const processors = [...(await startProcessors(services)), ...(await startWorkers(services))];
  const api = await startApi(config, services);
  const key = await demoKey(services.db);

  console.log(
    [
      '',
      'Product intelligence is running.',
      `  base URL    ${api.baseUrl}`,
      `  stream URL  ${api.streamUrl}`,
      `  admin key   ${key}   (project "${DEMO_PROJECT}")`,
      '',
      `  try: curl -s -X POST ${api.baseUrl}/events -H "Authorization: Bearer ${key}" \\`,
      `         -H 'Content-Type: application/json' -d '{"user_id":"u1","event":"page_view","properties":{"page":"/home"}}'`,
      '',
      process.argv.includes('--simulate')
        ? 'Sending simulated traffic to the demo project (scripts/simulate) …'
        : 'Add --simulate (npm start -- --simulate) for a live demo with simulated traffic.',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );

  if (process.argv.includes('--simulate')) {
    const simulation = await sendSimulation(api.baseUrl, key, defaultOptions(Date.now() % 100_000, 60, 3));
    console.log(
      `Sent ${simulation.answers.events} events of ${simulation.answers.users} users; try ` +
        `curl -s ${api.baseUrl}/analytics/friction -H "Authorization: Bearer ${key}"`,
    );
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log.info('stopping');
    await api.close();
    await Promise.all(processors.map((p) => p.stop()));
    await services.close();
    await stackDown(config, (m) => log.info(m), started);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
