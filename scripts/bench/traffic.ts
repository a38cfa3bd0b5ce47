import { setTimeout as sleep } from 'node:timers/promises';
import type { TrackedEventInput } from '../../domain/tracked-event.js';
import { defaultOptions } from '../simulate.js';
import { type Simulation, simulate } from '../simulate/generator.js';

/** POSTs a batch; resolves with the HTTP status (202 = durably in Kafka). */
export async function postBatch(baseUrl: string, key: string, events: TrackedEventInput[]): Promise<number> {
  const res = await fetch(`${baseUrl}/events/batch`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  await res.arrayBuffer();
  return res.status;
}

export interface TrafficOptions {
  /** users per seed (the simulator's ids carry the seed, so each seed brings new users) */
  users: number;
  /** the first seed (default 1) */
  firstSeed?: number;
  sessions: number;
  start: number;
  spanMs: number;
}

/** The simulator's traffic seed after seed: each seed's users (with their properties) and events. */
export function* simulations(options: TrafficOptions): Generator<Simulation, void, undefined> {
  for (let seed = options.firstSeed ?? 1; ; seed++) {
    const base = defaultOptions(seed, options.users, options.sessions);
    yield simulate({ ...base, start: options.start, spanMs: options.spanMs });
  }
}

/**
 * Realistic traffic from the simulator (sessions of page views, clicks, impressions, uses with UI
 * context and planted friction). `timestamps: false` drops the simulated times so the API stamps
 * each event on receipt: live traffic. Message ids are unique per run.
 */
export function* simulatedEvents(
  run: string,
  options: TrafficOptions & { timestamps: boolean },
): Generator<TrackedEventInput> {
  let n = 0;
  for (const { events } of simulations(options)) {
    for (const { timestamp, ...rest } of events) {
      yield { ...rest, message_id: `${run}-${n++}`, ...(options.timestamps ? { timestamp } : {}) };
    }
  }
}

/**
 * The events of `concurrent` users at a time, one event of each in turn: a busy product's traffic,
 * where each user's session arrives over many batches (a user sends an event every
 * `concurrent / rate` seconds), not all at once. The source must yield each user's events together,
 * as the simulator does; a user's slot goes to the next user when their events run out.
 */
export function* interleaved(source: Iterator<TrackedEventInput>, concurrent: number): Generator<TrackedEventInput> {
  let pending = source.next();
  const nextUser = (): TrackedEventInput[] => {
    const events: TrackedEventInput[] = [];
    while (!pending.done && (events.length === 0 || pending.value.user_id === events[0]!.user_id)) {
      events.push(pending.value);
      pending = source.next();
    }
    return events;
  };
  const slots = Array.from({ length: concurrent }, nextUser).filter((events) => events.length > 0);
  while (slots.length > 0) {
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      yield slot.shift()!;
      if (slot.length === 0) {
        const next = nextUser();
        if (next.length > 0) slots[i] = next;
        else slots.splice(i--, 1);
      }
    }
  }
}

export const take = <T>(source: Iterator<T>, n: number): T[] => {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    const next = source.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
};

export interface SendStats {
  offered: number;
  accepted: number;
  refused: Record<number, number>;
  failed: number;
  seconds: number;
}

/**
 * Sends as fast as `connections` parallel requests of `batchSize` events allow, for `seconds`.
 * `onAccepted` is told how many events each 202 covered.
 */
export async function burst(
  baseUrl: string,
  key: string,
  source: Iterator<TrackedEventInput>,
  options: { seconds: number; connections: number; batchSize: number },
  onAccepted: (n: number) => void = () => undefined,
): Promise<SendStats> {
  const stats: SendStats = { offered: 0, accepted: 0, refused: {}, failed: 0, seconds: 0 };
  const start = performance.now();
  const end = start + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < end) {
        const batch = take(source, options.batchSize);
        if (batch.length === 0) return; // the source ran out
        stats.offered += batch.length;
        const status = await postBatch(baseUrl, key, batch).catch(() => 0);
        if (status === 202) {
          stats.accepted += batch.length;
          onAccepted(batch.length);
        } else if (status === 0) stats.failed += batch.length;
        else stats.refused[status] = (stats.refused[status] ?? 0) + batch.length;
      }
    }),
  );
  stats.seconds = (performance.now() - start) / 1000;
  return stats;
}

/**
 * Offers `rate` events/s for `seconds`: a batch every `tickMs`, each sent at once (a slow answer
 * does not delay the schedule, at most `maxInFlight` requests in flight; a tick that finds none
 * free is counted as offered and not sent). `extra` adds events to a tick (the probes).
 */
export async function paced(
  baseUrl: string,
  key: string,
  source: Iterator<TrackedEventInput>,
  options: { rate: number; seconds: number; tickMs: number; maxInFlight: number },
  onAccepted: (n: number) => void = () => undefined,
): Promise<SendStats> {
  const stats: SendStats = { offered: 0, accepted: 0, refused: {}, failed: 0, seconds: 0 };
  const perTick = (options.rate * options.tickMs) / 1000;
  const ticks = Math.round((options.seconds * 1000) / options.tickMs);
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  let due = 0;
  for (let tick = 0; tick < ticks; tick++) {
    due += perTick;
    const n = Math.floor(due);
    due -= n;
    const batch = take(source, n);
    stats.offered += batch.length;
    if (batch.length > 0 && inFlight.size < options.maxInFlight) {
      const request: Promise<void> = postBatch(baseUrl, key, batch)
        .then(
          (status) => {
            if (status === 202) {
              stats.accepted += batch.length;
              onAccepted(batch.length);
            } else stats.refused[status] = (stats.refused[status] ?? 0) + batch.length;
          },
          () => {
            stats.failed += batch.length;
          },
        )
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    } else if (batch.length > 0) stats.failed += batch.length;
    const wait = start + (tick + 1) * options.tickMs - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inFlight);
  stats.seconds = (performance.now() - start) / 1000;
  return stats;
}
