export { Client, type ClientOptions, type IdentifyInput, type TrackInput } from './client.js';
export type { ErrorCallback, WireEvent } from './delivery.js';
export { ApiError, DeliveryError, NetworkError } from './errors.js';
export { ApiCalls, type Body, type Query, type Schemas } from './reads.js';
export type { components, operations, paths } from './api.js';
