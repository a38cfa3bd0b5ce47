import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'csv-parse/sync';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface MediaType {
  schema: { $ref?: string; type?: string };
}
interface Operation {
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text of any other body. */
  body: T;
}

export interface CallOptions {
  /** Values of the template's {parameters} */
  params?: Record<string, string>;
  /** e.g. '?format=csv' */
  query?: string;
  key?: string;
  json?: unknown;
  headers?: Record<string, string>;
}

/**
 * Sends requests to the API and checks every answer against the OpenAPI document it serves: the
 * operation exists, the status is documented for it, the media type is one it declares, and the
 * body validates against the declared schema (ajv, JSON Schema 2020-12). CSV and NDJSON rows are
 * checked against `rowSchema`. Remembers which documented success answers it has seen.
 */
export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly baseUrl: string,
    private readonly document: OpenApiDocument,
    private readonly rowSchema: string,
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi.json', components: document.components });
  }

  /** `template` is the document's path (`/jobs/{job_id}`); `request.params` fill it in. */
  async call<T = Record<string, unknown>>(
    method: string,
    template: string,
    request: CallOptions = {},
  ): Promise<Answer<T>> {
    const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = request.params?.[name];
      assert.ok(value !== undefined, `no value for {${name}} in ${template}`);
      return encodeURIComponent(value);
    });
    const headers: Record<string, string> = { ...request.headers };
    if (request.key) headers.Authorization = `Bearer ${request.key}`;
    let body: string | undefined;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}${request.query ?? ''}`, { method, headers, body });
    const text = await res.text();
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const answer: Answer = {
      status: res.status,
      headers: res.headers,
      body: type === 'application/json' ? (JSON.parse(text) as unknown) : text,
    };
    this.check(method, template, type, answer);
    return answer as Answer<T>;
  }

  private check(method: string, template: string, type: string, answer: Answer): void {
    const what = `${method} ${template} → ${answer.status}`;
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    assert.ok(operation, `${method} ${template} is not in the document`);
    const response = operation.responses[String(answer.status)];
    assert.ok(response, `${what}: the status is not documented; body ${JSON.stringify(answer.body)}`);
    const media = response.content?.[type];
    assert.ok(media, `${what}: answered ${type}, documented ${Object.keys(response.content ?? {}).join(', ')}`);
    if (type === 'application/json') {
      this.validate(media.schema.$ref!, answer.body, what);
      // One rounding rule on every route: no figure with more than 9 decimals (customer properties aside).
      assert.deepEqual(unrounded(answer.body), [], `${what}: figures not rounded to 9 decimals`);
    } else {
      assert.equal(media.schema.type, 'string', what);
      for (const row of rowsOf(type, answer.body as string)) this.validate(this.rowSchema, row, `${what} row`);
    }
    this.seen.add(`${method} ${template} ${answer.status}`);
  }

  private validate(ref: string, value: unknown, what: string): void {
    const id = `openapi.json${ref.startsWith('#') ? ref : `#/components/schemas/${ref}`}`;
    let validator = this.validators.get(id);
    if (!validator) {
      validator = this.ajv.compile({ $ref: id });
      this.validators.set(id, validator);
    }
    if (!validator(value)) {
      assert.fail(
        `${what}: outside ${ref}: ${this.ajv.errorsText(validator.errors)}\n${JSON.stringify(value, null, 1)}`,
      );
    }
  }

  /** The documented success answers (2xx) no call has produced yet. */
  unseenSuccesses(): string[] {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(this.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of Object.keys(operation.responses).filter((s) => s.startsWith('2'))) {
          const key = `${method.toUpperCase()} ${path} ${status}`;
          if (!this.seen.has(key)) missing.push(key);
        }
      }
    }
    return missing;
  }
}

/** CSV rows (properties as JSON text) and NDJSON lines as the objects the JSON export holds. */
function rowsOf(type: string, text: string): unknown[] {
  if (type === 'application/x-ndjson') {
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  }
  assert.equal(type, 'text/csv');
  const rows = parse<Record<string, string>>(text, { columns: true });
  return rows.map((row) => ({ ...row, properties: JSON.parse(row.properties ?? 'null') as unknown }));
}

/** The paths of numbers in `value` with more than 9 decimals, outside members named `properties`. */
function unrounded(value: unknown, path = ''): string[] {
  if (typeof value === 'number') return Math.round(value * 1e9) / 1e9 === value ? [] : [`${path}: ${value}`];
  if (Array.isArray(value)) return value.flatMap((v, i) => unrounded(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'properties' ? [] : unrounded(v, `${path}.${k}`)));
}
