/**
 * The stream's wire protocol (DESIGN §7), free of I/O: what a client may send and what the server
 * answers. The connection handling lives in server.ts.
 */
export const CHANNELS = ['friction_alerts', 'job_completions', 'cohort_changes'] as const;
export type Channel = (typeof CHANNELS)[number];

export type ClientMessage =
  { type: 'auth'; apiKey: string } | { type: 'subscribe' | 'unsubscribe'; channels: Channel[] } | { type: 'ping' };

export interface StreamError {
  type: 'error';
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export const streamError = (code: string, message: string, details?: Record<string, unknown>): StreamError =>
  details ? { type: 'error', code, message, details } : { type: 'error', code, message };

/** A client message, or the error to answer it with (the connection stays open). */
export function parseClientMessage(raw: string): ClientMessage | StreamError {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return streamError('invalid_message', 'Messages are JSON objects.');
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    return streamError('invalid_message', 'Messages are JSON objects.');
  }
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'auth':
      if (typeof m.api_key !== 'string' || m.api_key === '') {
        return streamError('invalid_message', 'auth needs api_key (string).', { field: 'api_key', reason: 'required' });
      }
      return { type: 'auth', apiKey: m.api_key };
    case 'subscribe':
    case 'unsubscribe': {
      if (!Array.isArray(m.channels) || m.channels.length === 0 || m.channels.some((c) => typeof c !== 'string')) {
        return streamError('invalid_message', `${m.type} needs channels (a non-empty array of strings).`, {
          field: 'channels',
          reason: 'invalid_type',
        });
      }
      const unknown = (m.channels as string[]).filter((c) => !(CHANNELS as readonly string[]).includes(c));
      if (unknown.length > 0) {
        return streamError('unknown_channel', `Unknown channel(s): ${unknown.join(', ')}.`, {
          unknown,
          channels: CHANNELS,
        });
      }
      return { type: m.type, channels: [...new Set(m.channels as Channel[])] };
    }
    case 'ping':
      return { type: 'ping' };
    default:
      return streamError('unknown_type', 'Message types are auth, subscribe, unsubscribe and ping.', {
        type: typeof m.type === 'string' ? m.type : null,
      });
  }
}

/** The reply to subscribe and unsubscribe alike: the channels now held. */
export function subscribedReply(held: Set<Channel>) {
  return { type: 'subscribed', channels: CHANNELS.filter((c) => held.has(c)) };
}
