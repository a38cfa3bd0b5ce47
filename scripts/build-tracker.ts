/**
 * Bundles the browser tracker (clients/browser/src/auto.ts) into one minified file that the API
 * serves at /tracker.js. `npm start` and `npm test` run it first (prestart, pretest), so a fresh
 * clone needs nothing committed under dist/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../lib/cli.js';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { TRACKER_BUNDLE } from '../api/tracker-script.js';

export const TRACKER_ENTRY = fileURLToPath(new URL('../clients/browser/src/auto.ts', import.meta.url));

/** The minified script-tag bundle (an IIFE for ES2020 browsers). */
export async function bundleTracker(): Promise<string> {
  const result = await build({
    entryPoints: [TRACKER_ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export async function buildTracker(file = TRACKER_BUNDLE): Promise<string> {
  const code = await bundleTracker();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, code);
  return code;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCli(
    {
      usage: 'npm run build:tracker',
      summary:
        'Bundles the browser tracker (clients/browser) into dist/tracker.js, which the API serves at /tracker.js.',
      options: {},
    },
    async () => {
      const code = await buildTracker();
      console.log(`${path.relative(process.cwd(), TRACKER_BUNDLE)}: ${code.length} bytes`);
    },
  );
}
