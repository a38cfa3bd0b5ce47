/**
 * Building blocks of the response schemas (JSON Schema 2020-12, as OpenAPI 3.1 takes it). Objects
 * are closed (`additionalProperties: false`): a field an answer gains or loses fails
 * test/integration/openapi.test.ts until its schema says so.
 */
export type Schema = Record<string, unknown>;

/** A closed object: `required` members first, then `optional` ones. */
export function obj(
  required: Record<string, Schema>,
  optional: Record<string, Schema> = {},
  description?: string,
): Schema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    required: Object.keys(required),
    additionalProperties: false,
    properties: { ...required, ...optional },
  };
}

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type, 'null'] });
export const array = (items: Schema, description?: string): Schema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});
export const literal = (value: string | boolean): Schema => ({ const: value });
export const enumOf = (...values: readonly string[]): Schema => ({ enum: [...values] });

export const str: Schema = { type: 'string' };
export const int: Schema = { type: 'integer' };
export const num: Schema = { type: 'number' };
export const bool: Schema = { type: 'boolean' };
export const ratio: Schema = { type: 'number', minimum: 0, maximum: 1 };
export const timestamp: Schema = { type: 'string', format: 'date-time' };
export const date: Schema = { type: 'string', format: 'date' };
export const strings: Schema = array(str);
export const numbers: Schema = { type: 'object', additionalProperties: num };
export const freeObject: Schema = { type: 'object', description: 'free key/value pairs' };

/** A page of a listing: `{ [key]: items, total, page, per_page }` (api/query.ts paging). */
export const paged = (key: string, item: Schema): Schema =>
  obj({ [key]: array(item), total: int, page: int, per_page: int });
