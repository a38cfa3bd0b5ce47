import crypto from 'node:crypto';

/**
 * Standard Webhooks (standardwebhooks.com): the receiver recomputes
 * base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)) with the key the `whsec_` secret encodes.
 */
export function signature(secret: string, id: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = crypto.createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export function webhookHeaders(secret: string, id: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body),
  };
}
