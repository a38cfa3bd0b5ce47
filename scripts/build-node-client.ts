/**
 * Builds the Node client (clients/node): its API types generated from the OpenAPI document by
 * openapi-typescript (src/api.ts, committed: test/integration/openapi.test.ts fails when it differs
 * from a fresh generation), then its JavaScript and declarations into the git-ignored dist/, which
 * `npm install ./clients/node` installs. `--compile-only` leaves src/api.ts alone: `npm start` and
 * `npm test` compile with it, so a stale src/api.ts is reported by the test, not rewritten.
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
function compileNodeClient(outDir: string): Map<string, string> {
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

export async function buildNodeClient(compileOnly: boolean): Promise<void> {
  if (!compileOnly) fs.writeFileSync(API_TYPES, await nodeClientTypes(openApiDocument()));
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
      options: {
        'compile-only': { type: 'boolean', help: 'only compile src/ into dist/ (src/api.ts as committed)' },
      },
    },
    async ({ values }) => {
      const compileOnly = values['compile-only'] ?? false;
      await buildNodeClient(compileOnly);
      console.log(`wrote ${compileOnly ? '' : `${path.relative(process.cwd(), API_TYPES)} and `}clients/node/dist/`);
      return 0;
    },
  );
}
