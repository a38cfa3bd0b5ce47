import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp, routeTable } from '../../api/app.js';
import { openApiPath } from '../../api/openapi.js';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, services, startTestApi } from './helpers.js';

describe('OpenAPI document', () => {
  let api: RunningApi;
  let document: { openapi: string; paths: Record<string, Record<string, unknown>> };

  before(async () => {
    api = await startTestApi();
    const reply = await call<typeof document>(api, 'GET', '/openapi.json');
    assert.equal(reply.status, 200);
    document = reply.body;
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('lists exactly the routes the server registers', () => {
    const deps = { db: services().db, log: services().log } as Parameters<typeof routeTable>[0];
    const { router } = createApp(deps);
    const registered = new Set<string>();
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        registered.add(`${method} ${openApiPath(String(layer.path).replace(/^\/v1/, ''))}`);
      }
    }
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    assert.deepEqual([...registered].sort(), [...documented].sort());
    assert.ok(documented.has('POST /jobs') && documented.has('DELETE /users/{user_id}'));
  });

  it("documents request bodies with the validator's schemas", () => {
    const post = document.paths['/jobs']!.post as {
      requestBody: { content: Record<string, { schema: { $ref: string } }> };
    };
    assert.equal(post.requestBody.content['application/json']!.schema.$ref, '#/components/schemas/job-create');
  });
});
