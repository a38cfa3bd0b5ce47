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

/**
 * The paging members of a list answer (api/query.ts pageFields): `page` only where it is the older
 * name of `page_number` (not on the friction routes, where `page` is a page of the product).
 */
export const pageMembers = (alias = true): Record<string, Schema> => ({
  total: { ...int, description: 'items matching, on every page' },
  page_number: int,
  ...(alias ? { page: { ...int, description: 'older name of page_number' } } : {}),
  per_page: int,
  next: { ...nullable(int), description: 'the next page_number, null on the last page' },
});

/** A page of a listing: `{ [key]: items, total, page_number, page, per_page, next }`. */
export const paged = (key: string, item: Schema): Schema => obj({ [key]: array(item), ...pageMembers() });
