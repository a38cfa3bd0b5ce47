import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { RUN, client, service, storedRows, unique, waitFor } from './support.js';

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

/** The package as an application gets it: `npm install ./clients/node` into a project of its own, plain Node. */
describe('installed with npm install into another project', () => {
  let project: string;

  before(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-node-client-'));
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--offline', PACKAGE], { cwd: project, timeout: 120_000 });
  });
  after(() => fs.rmSync(project, { recursive: true, force: true }));

  it('a plain Node program imports it, tracks, ends without flushing, and the event arrives', async () => {
    const event = unique('at-exit');
    const messageId = unique('m');
    // No flush, no shutdown: the program's last statement is the track; beforeExit sends it.
    const program = `
      import { Client } from 'product-intelligence';
      const client = new Client({ apiKey: process.env.PI_API_KEY, host: process.env.PI_BASE_URL, flushInterval: 60000 });
      client.track({ userId: '${RUN}-exit', event: '${event}', messageId: '${messageId}' });
    `;
    fs.writeFileSync(path.join(project, 'main.mjs'), program);
    const { baseUrl, apiKey } = service();
    await run(process.execPath, ['main.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH, PI_API_KEY: apiKey, PI_BASE_URL: baseUrl },
      timeout: 60_000,
    });
    const reader = client();
    await waitFor(
      'the event of the exited program',
      async () => (await storedRows(reader, event, [messageId])).length === 1,
    );
  });

  it('the installed package has its built JavaScript and declarations and no dependencies', () => {
    const installed = fs.realpathSync(path.join(project, 'node_modules', 'product-intelligence'));
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(manifest.dependencies, undefined);
    assert.ok(fs.existsSync(path.join(installed, 'dist', 'index.js')));
    assert.ok(fs.existsSync(path.join(installed, 'dist', 'index.d.ts')));
  });
});
