/**
 * Builds the Node client (clients/node): its API types generated from the OpenAPI document by
 * openapi-typescript (src/api.ts), then its JavaScript and declarations (dist/), both committed so
 * that `npm install ./clients/node` works in any Node 20 project without a build step.
 * test/integration/openapi.test.ts fails when either differs from a fresh build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { type AppDeps, routeTable } from '../api/app.js';
import { buildOpenApi } from '../api/openapi.js';
import { runCli } from '../lib/cli.js';

export const NODE_CLIENT = fileURLToPath(new URL('../clients/node/', import.meta.url));
export const API_TYPES = path.join(NODE_CLIENT, 'src', 'api.ts');

const HEADER = `/**
 * Generated from the service's OpenAPI document by openapi-typescript (npm run build:node-client).
 * Do not edit: a test fails when this file differs from a fresh generation.
 */

`;

/** The route table's OpenAPI document; no route is mounted, so no dependency is needed. */
export function openApiDocument(): Record<string, unknown> {
  return buildOpenApi(routeTable({} as AppDeps));
}

/** src/api.ts for the given document. */
export async function nodeClientTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    alphabetize: true,
    emptyObjectsUnknown: true,
  });
  return HEADER + astToString(ast);
}

/** Compiles clients/node/src into `outDir`; the emitted files by path relative to it. */
export function compileNodeClient(outDir: string): Map<string, string> {
  const configFile = path.join(NODE_CLIENT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, (f) => ts.sys.readFile(f)) as { config: unknown };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, NODE_CLIENT, { outDir });
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const emitted = new Map<string, string>();
  const result = program.emit(undefined, (file, text) => emitted.set(path.relative(outDir, file), text));
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (problems.length > 0) {
    throw new Error(
      ts.formatDiagnostics(problems, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => NODE_CLIENT,
        getNewLine: () => '\n',
      }),
    );
  }
  return emitted;
}

/** The committed files of dir, by path relative to it. */
export function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(dir, file), fs.readFileSync(file, 'utf8'));
    }
  }
  return files;
}

export async function buildNodeClient(): Promise<void> {
  fs.writeFileSync(API_TYPES, await nodeClientTypes(openApiDocument()));
  const dist = path.join(NODE_CLIENT, 'dist');
  const emitted = compileNodeClient(dist);
  fs.rmSync(dist, { recursive: true, force: true });
  for (const [file, text] of emitted) {
    fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    fs.writeFileSync(path.join(dist, file), text);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runCli(
    {
      usage: 'npm run build:node-client',
      summary:
        'Generates clients/node/src/api.ts from the OpenAPI document and compiles the client into clients/node/dist.',
      options: {},
    },
    async () => {
      await buildNodeClient();
      console.log(`wrote ${path.relative(process.cwd(), API_TYPES)} and clients/node/dist/`);
      return 0;
    },
  );
}
