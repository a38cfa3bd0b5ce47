import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'schemas');

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Every JSON Schema of schemas/ (request bodies and the tracked event), keyed by $id. */
export function loadJsonSchemas(): Record<string, Record<string, unknown>> {
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const file of fs.readdirSync(schemasDir).filter((f) => f.endsWith('.json'))) {
    const schema = JSON.parse(fs.readFileSync(path.join(schemasDir, file), 'utf8')) as Record<string, unknown>;
    schemas[String(schema.$id)] = schema;
  }
  return schemas;
}

export function createAjv(): Ajv2020 {
  // verbose: an error carries its schema, so an unknown field can be answered with the known one meant.
  const ajv = new Ajv2020({ allErrors: false, strict: true, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  for (const schema of Object.values(loadJsonSchemas())) ajv.addSchema(schema);
  return ajv;
}

export type { ValidateFunction };

/** `/events/3/user_id` → `events[3].user_id` */
export function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce(
    (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`),
    '',
  );
}

export interface FieldProblem {
  field: string;
  reason: string;
  message: string;
}

/** The first ajv error as the contract's details: the field it concerns and a short reason. */
export function describeError(error: ErrorObject): FieldProblem {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const field = fieldPath(error.instancePath, missing);
      // A field given under another spelling (`userId`) is why the right one is missing.
      const given = error.data !== null && typeof error.data === 'object' ? Object.keys(error.data) : [];
      const misspelt = given.find((name) => name !== missing && closestName(name, [missing]) === missing);
      const hint =
        misspelt === undefined
          ? ''
          : ` ${fieldPath(error.instancePath, misspelt)} is not a known field: did you mean ${field}?`;
      return { field, reason: 'required', message: `${field} is required.${hint}` };
    }
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const field = fieldPath(error.instancePath, name);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const meant = closestName(name, known);
      const hint = meant === undefined ? '' : ` Did you mean ${fieldPath(error.instancePath, meant)}?`;
      return { field, reason: 'unknown_field', message: `${field} is not a known field.${hint}` };
    }
    case 'type': {
      const field = fieldPath(error.instancePath) || '(body)';
      return { field, reason: 'invalid_type', message: `${field} must be of type ${String(params.type)}.` };
    }
    case 'format': {
      const field = fieldPath(error.instancePath);
      return { field, reason: 'invalid_format', message: `${field} must be a valid ${String(params.format)}.` };
    }
    case 'enum': {
      const field = fieldPath(error.instancePath);
      const allowed = (params.allowedValues as unknown[]).map(String).join(', ');
      return { field, reason: 'invalid_value', message: `${field} must be one of: ${allowed}.` };
    }
    default: {
      const field = fieldPath(error.instancePath) || '(body)';
      return {
        field,
        reason: error.keyword.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        message: `${field} ${limitMessage(error.keyword, params) ?? error.message ?? 'is invalid'}.`,
      };
    }
  }
}

const COMPARISONS: Record<string, string> = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' };

const plural = (n: unknown, one: string) => `${String(n)} ${one}${n === 1 ? '' : 's'}`;

/** A schema limit in words ("must be at least 1 character long"), or undefined for ajv's own text. */
function limitMessage(keyword: string, params: Record<string, unknown>): string | undefined {
  switch (keyword) {
    case 'minLength':
      return `must be at least ${plural(params.limit, 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(params.limit, 'character')} long`;
    case 'minItems':
      return `must hold at least ${plural(params.limit, 'item')}`;
    case 'maxItems':
      return `must hold at most ${plural(params.limit, 'item')}`;
    case 'minProperties':
      return `must hold at least ${plural(params.limit, 'field')}`;
    case 'maxProperties':
      return `must hold at most ${plural(params.limit, 'field')}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${COMPARISONS[String(params.comparison)] ?? String(params.comparison)} ${String(params.limit)}`;
    case 'uniqueItems':
      return `must not repeat an item (items ${String(params.j)} and ${String(params.i)} are the same)`;
    case 'propertyNames':
      return `has a key that is not allowed (${String(params.propertyName)})`;
    default:
      return undefined;
  }
}

/** Letters and digits only, lower case: `userId`, `user-id` and `USER_ID` are the same name. */
const squashed = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The known name an unknown one most likely meant: the same name written another way (`userId` for
 * `user_id`), else one or two letters off (`nmae`), if exactly one known name is that close.
 */
export function closestName(name: string, known: string[]): string | undefined {
  const same = known.filter((k) => squashed(k) === squashed(name));
  if (same.length === 1) return same[0];
  const near = known.filter((k) => editDistance(squashed(k), squashed(name)) <= (name.length >= 4 ? 2 : 1));
  return near.length === 1 ? near[0] : undefined;
}

/** Levenshtein distance, short names only (field names are short; longer ones are not compared). */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
