import { ADMIN_SCHEMAS } from './admin.js';
import { ANALYTICS_SCHEMAS } from './analytics.js';
import { SERVICE_SCHEMAS } from './service.js';
import type { Schema } from './shapes.js';

/**
 * Every success answer's schema, by its name in the OpenAPI document's components/schemas. A
 * route names its own in `success.schema`; test/integration/openapi.test.ts checks real answers
 * against them.
 */
export const RESPONSE_SCHEMAS = { ...ANALYTICS_SCHEMAS, ...ADMIN_SCHEMAS, ...SERVICE_SCHEMAS } satisfies Record<
  string,
  Schema
>;

export type ResponseName = keyof typeof RESPONSE_SCHEMAS;
