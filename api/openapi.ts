import { loadJsonSchemas } from '../lib/json-schemas.js';
import { RESPONSE_SCHEMAS } from './responses/index.js';
import type { Route } from './route.js';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'object', description: 'field and reason for a field problem; more by error' },
      },
    },
  },
};

const COMMON_ERRORS: Record<number, string> = {
  400: 'Invalid request (details.field, details.reason)',
  401: 'Missing or invalid API key',
  403: 'The key lacks the scope',
  429: 'Rate limit exceeded (Retry-After)',
  500: 'Internal error',
};

const RATE_HEADERS = Object.fromEntries(
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => [
    name,
    {
      description: name === 'X-RateLimit-Reset' ? 'Unix time (seconds) when the window ends' : 'requests per hour',
      schema: { type: 'integer' },
    },
  ]),
);

/** `/jobs/:job_id` → `/jobs/{job_id}` */
export const openApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** OpenAPI 3.1, built from the route table and the same JSON Schemas the validator uses. */
export function buildOpenApi(routes: Route[]): Record<string, unknown> {
  const schemas = loadJsonSchemas();
  const components: Record<string, unknown> = { Error: ERROR_SCHEMA, ...RESPONSE_SCHEMAS };
  const ref = (id: string) => `#/components/schemas/${id.replace(/\.json$/, '')}`;
  for (const [id, schema] of Object.entries(schemas)) {
    // A schema's $defs become components of their own ("job-create.json#/$defs/x" → job-create.x),
    // so generators see each as a type rather than a member named $defs; $refs follow.
    const name = id.replace(/\.json$/, '');
    const text = JSON.stringify({ ...schema, $id: undefined, $schema: undefined })
      .replace(/"\$ref":"#\/\$defs\//g, `"$ref":"${name}.json#/$defs/`)
      .replace(/"\$ref":"([a-z0-9-]+)\.json(#[^"]*)?"/g, (_m, file: string, pointer: string | undefined) => {
        const def = /^#\/\$defs\/(.+)$/.exec(pointer ?? '');
        return `"$ref":"${ref(def ? `${file}.${def[1]}` : file)}${def ? '' : (pointer ?? '').slice(1)}"`;
      });
    const { $defs, ...rest } = JSON.parse(text) as { $defs?: Record<string, unknown> };
    components[name] = rest;
    for (const [def, definition] of Object.entries($defs ?? {})) components[`${name}.${def}`] = definition;
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const success = {
      description: route.success.description,
      ...(route.scope ? { headers: RATE_HEADERS } : {}),
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${route.success.schema}` } },
        ...Object.fromEntries(
          Object.entries(route.produces ?? {}).map(([type, description]) => [
            type,
            { schema: { type: 'string', description } },
          ]),
        ),
      },
    };
    const responses: Record<string, unknown> = { [route.success.status]: success };
    for (const [status, description] of Object.entries(route.success.also ?? {})) {
      responses[status] = { ...success, description };
    }
    const errors = { ...(route.scope ? COMMON_ERRORS : { 500: COMMON_ERRORS[500]! }), ...route.errors };
    if (route.body) Object.assign(errors, { 413: 'Body larger than 1 MiB', 415: 'Body is not JSON' });
    for (const [status, description] of Object.entries(errors)) {
      if (responses[status]) continue;
      responses[status] = {
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      security: route.scope ? [{ bearer: [] }] : [],
      ...(route.scope ? { 'x-scope': route.scope } : {}),
      parameters: [
        ...pathParams,
        ...(route.query ?? []).map((q) => ({
          name: q.name,
          in: 'query',
          description: q.description,
          required: q.required ?? false,
          schema: q.schema,
        })),
      ],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: ref(route.body) } } } } }
        : {}),
      responses,
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Product Intelligence API',
      version: '1.0.0',
      description: 'UI-contextual product analytics. Errors: {"error":{"code","message","details"}}.',
    },
    servers: [{ url: '/v1' }],
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
