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
  const ajv = new Ajv2020({ allErrors: false, strict: true, allowUnionTypes: true });
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
      const field = fieldPath(error.instancePath, String(params.missingProperty));
      return { field, reason: 'required', message: `${field} is required.` };
    }
    case 'additionalProperties': {
      const field = fieldPath(error.instancePath, String(params.additionalProperty));
      return { field, reason: 'unknown_field', message: `${field} is not a known field.` };
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
        message: `${field} ${error.message ?? 'is invalid'}.`,
      };
    }
  }
}
