/**
 * Generated from the service's OpenAPI document by openapi-typescript (npm run build:node-client).
 * Do not edit: a test fails when this file differs from a fresh generation.
 */
export {};
