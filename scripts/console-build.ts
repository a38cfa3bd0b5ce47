/**
 * `npm run console:build [-- --force]`: builds the admin console (console/, Preact + Vite) into
 * console/dist, which the API serves at /console. Skipped when the build is newer than every
 * input, so `npm start` and the tests run it every time at no cost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../lib/cli.js';
import { build } from 'vite';
import { projectRoot } from './local-stack/paths.js';

export const CONSOLE_ROOT = path.join(projectRoot, 'console');
export const CONSOLE_DIST = path.join(CONSOLE_ROOT, 'dist');

/** What the build reads: a change to any of them (a pull, an edit, new packages) makes it stale. */
const INPUTS = [
  path.join(CONSOLE_ROOT, 'src'),
  path.join(CONSOLE_ROOT, 'public'),
  path.join(CONSOLE_ROOT, 'index.html'),
  path.join(projectRoot, 'package-lock.json'),
  path.join(projectRoot, 'scripts', 'console-build.ts'),
];

function newest(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).map((name) => newest(path.join(file, name))));
}

export function consoleBuildIsStale(): boolean {
  const built = path.join(CONSOLE_DIST, 'index.html');
  if (!fs.existsSync(built)) return true;
  return Math.max(...INPUTS.map(newest)) > fs.statSync(built).mtimeMs;
}

/**
 * Builds into a folder of its own and then swaps it in, so a server reading console/dist (or a
 * second build at the same time) never sees half a build.
 */
export async function buildConsole(): Promise<void> {
  const staging = `${CONSOLE_DIST}.${process.pid}.tmp`;
  try {
    await build({
      root: CONSOLE_ROOT,
      base: '/console/',
      configFile: false,
      envDir: false,
      logLevel: 'warn',
      publicDir: path.join(CONSOLE_ROOT, 'public'),
      oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
      build: { outDir: staging, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
    });
    fs.rmSync(CONSOLE_DIST, { recursive: true, force: true });
    fs.renameSync(staging, CONSOLE_DIST);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Builds when stale (or when forced); answers whether it built. */
export async function ensureConsoleBuild(force = false): Promise<boolean> {
  if (!force && !consoleBuildIsStale()) return false;
  const started = Date.now();
  await buildConsole();
  console.error(
    `console built into ${path.relative(process.cwd(), CONSOLE_DIST) || '.'} in ${Date.now() - started} ms`,
  );
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCli(
    {
      usage: 'npm run console:build [-- --force]',
      summary:
        'Builds the admin console (console/) into console/dist with Vite when it is missing or older than its sources.',
      options: { force: { type: 'boolean', help: 'build even when console/dist is up to date' } },
    },
    async ({ values }) => {
      await ensureConsoleBuild(values.force ?? false);
    },
  );
}
