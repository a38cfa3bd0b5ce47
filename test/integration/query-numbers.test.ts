import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, errorOf, newProject, startTestApi } from './helpers.js';

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string; minimum?: number; maximum?: number };
}
type Operations = Record<string, { parameters?: Parameter[] }>;

/** Values a client may send for a number: fractions, beyond 32 bits, negative, huge, not a number. */
const VALUES = ['0.5', '1.5', '3000000000', '-1', '1e308', '1e400', 'x', ''];

/** Whether the OpenAPI schema of a parameter takes `raw` (a query string value). */
function accepts(schema: NonNullable<Parameter['schema']>, raw: string): boolean {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) return false;
  if (schema.type === 'integer' && !Number.isInteger(value)) return false;
  return value >= (schema.minimum ?? -Infinity) && value <= (schema.maximum ?? Infinity);
}

describe('numeric query parameters of every route, swept from the OpenAPI document', function () {
  this.timeout(120_000);
  let api: RunningApi;
  let admin: string;

  before(async () => {
    api = await startTestApi();
    [admin] = (await newProject(['admin'])).keys as [string];
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  it('answers each value the document refuses with a 400 naming the parameter, and none with a 500', async () => {
    const document = (await call<{ paths: Record<string, Operations> }>(api, 'GET', '/openapi.json')).body;
    let swept = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const numeric = (operation.parameters ?? []).filter(
          (p) => p.in === 'query' && (p.schema?.type === 'number' || p.schema?.type === 'integer'),
        );
        if (numeric.length === 0) continue;
        // Reads only: a sweep must change nothing.
        assert.equal(method, 'get', `${method} ${path} takes a numeric query parameter: sweep it too`);
        const url = path.replace(/\{[^}]+\}/g, 'none');
        for (const parameter of numeric) {
          for (const raw of VALUES) {
            const reply = await call(api, 'GET', `${url}?${parameter.name}=${encodeURIComponent(raw)}`, {
              key: admin,
            });
            const where = `GET ${url}?${parameter.name}=${raw}: ${reply.status} ${JSON.stringify(reply.body)}`;
            assert.ok(reply.status < 500, where);
            if (accepts(parameter.schema!, raw)) {
              assert.notEqual(reply.status, 400, where);
            } else {
              assert.equal(reply.status, 400, where);
              assert.equal(errorOf(reply).details.field, parameter.name, where);
            }
            swept++;
          }
        }
      }
    }
    assert.ok(swept >= 5 * VALUES.length, `swept ${swept} values`);
  });
});
