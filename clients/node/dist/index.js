export { Client } from './client.js';
export { ApiError, DeliveryError, NetworkError } from './errors.js';
export { ApiCalls } from './reads.js';
