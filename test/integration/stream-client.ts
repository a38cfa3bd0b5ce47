import { WebSocket } from 'ws';
import { waitFor } from './helpers.js';

export interface StreamClient {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** The first message (after `from`) that satisfies `match`. */
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** A real ws client that records what the server sends. */
export async function connectStream(url: string): Promise<StreamClient> {
  const ws = new WebSocket(url);
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    messages,
    closed,
    send: (message) => ws.send(JSON.stringify(message)),
    next: (match, timeoutMs = 5000) => waitFor('a stream message', () => messages.find(match), timeoutMs),
  };
}

/** Connected, authenticated and subscribed. */
export async function subscribedClient(url: string, apiKey: string, channels: string[]): Promise<StreamClient> {
  const client = await connectStream(url);
  client.send({ type: 'auth', api_key: apiKey });
  await client.next((m) => m.type === 'auth_ok');
  client.send({ type: 'subscribe', channels });
  await client.next((m) => m.type === 'subscribed');
  return client;
}
