import { createAjv, describeError, type ValidateFunction } from '../lib/json-schemas.js';
import { fieldError } from './errors.js';

const ajv = createAjv();

/** Checks `body` against a schema of schemas/ and returns it typed, or throws 400 naming the field. */
export function validate<T>(schemaId: string, body: unknown): T {
  const check: ValidateFunction | undefined = ajv.getSchema(schemaId); // compiled once, cached by ajv
  if (!check) throw new Error(`unknown schema ${schemaId}`);
  if (!check(body)) {
    const problem = describeError(check.errors![0]!);
    throw fieldError(problem.field, problem.reason, problem.message);
  }
  return body as T;
}
