import { messageRef, openValue, sealValue } from '../../domain/sealed-user.js';
import type { SessionChain } from './core.js';

/** The value of pi.sessions.v1 (schemas/avro/pi.sessions.v1.avsc). */
export interface SessionChainRecord {
  project_id: string;
  user_id: string;
  gap_ms: number;
  max_ms: number;
  complete: boolean;
  sessions: { session_id: string; events: SessionEventRecord[] }[];
}

export interface SessionEventRecord {
  message_id: string;
  event: string;
  timestamp: number;
  received_at: number;
  offset: number;
  /** JSON object text */
  properties: string;
}

const eventRecord = (e: SessionChain['sessions'][number]['events'][number]): SessionEventRecord => ({
  message_id: e.message_id,
  event: e.event,
  timestamp: e.timestamp,
  received_at: e.received_at,
  offset: e.offset,
  properties: e.properties,
});

/**
 * A chain as the sessionizer writes it: the sessions holding events new to it, each with those
 * events only. The sink keeps the chains it stored, so sending their other events again with
 * every new one would make an event's cost grow with its session.
 */
export function chainRecord(chain: SessionChain): SessionChainRecord {
  return {
    project_id: chain.projectId,
    user_id: chain.userId,
    gap_ms: chain.rules.gapMs,
    max_ms: chain.rules.maxMs,
    complete: false,
    sessions: chain.sessions.flatMap((s) => {
      const events = s.events.filter((e) => chain.added.has(e.message_id));
      return events.length === 0 ? [] : [{ session_id: s.session_id, events: events.map(eventRecord) }];
    }),
  };
}

/** A record cut in two, each with half its events (for one too large for a message); undefined for one event. */
export function halvesOf(record: SessionChainRecord): [SessionChainRecord, SessionChainRecord] | undefined {
  const events = record.sessions.flatMap((s) => s.events.map((e) => ({ session_id: s.session_id, e })));
  if (events.length < 2) return undefined;
  const part = (from: number, to: number): SessionChainRecord => {
    const sessions: SessionChainRecord['sessions'] = [];
    for (const { session_id, e } of events.slice(from, to)) {
      const last = sessions[sessions.length - 1];
      if (last?.session_id === session_id) last.events.push(e);
      else sessions.push({ session_id, events: [e] });
    }
    return { ...record, sessions };
  };
  const middle = Math.ceil(events.length / 2);
  return [part(0, middle), part(middle, events.length)];
}

/**
 * pi.sessions.v1 as written since chains are sealed: the user id, and the events' properties and
 * message ids, in `sealed`; each event carries its message id's `messageRef` instead.
 */
export interface SealedChainRecord extends Omit<SessionChainRecord, 'user_id' | 'sessions'> {
  user_ref: string;
  sealed: Buffer;
  sessions: { session_id: string; events: SealedSessionEvent[] }[];
}

export interface SealedSessionEvent extends Omit<SessionEventRecord, 'properties' | 'message_id'> {
  /** `messageRef` of the message id, which is sealed; empty in chains sealed before message ids were */
  message_ref?: string;
  /** Those chains' id, in the clear; empty (the schema's default) where `message_ref` is set. */
  message_id?: string;
}

/** What `sealed` holds: the chain's events' properties and message ids in order (no `message_ids` before ADR 0080). */
interface SealedChainValue {
  user_id: string;
  properties: string[];
  message_ids?: string[];
}

export type ChainOnWire = SealedChainRecord | SessionChainRecord;

export const isSealedChain = (c: ChainOnWire): c is SealedChainRecord => 'user_ref' in c && c.user_ref !== '';

export function sealChain(chain: SessionChainRecord, ref: string, key: Buffer): SealedChainRecord {
  const { user_id, sessions, ...rest } = chain;
  const events = sessions.flatMap((s) => s.events);
  const value: SealedChainValue = {
    user_id,
    properties: events.map((e) => e.properties),
    message_ids: events.map((e) => e.message_id),
  };
  return {
    ...rest,
    user_ref: ref,
    sealed: sealValue(key, `${chain.project_id}:${ref}`, value),
    sessions: sessions.map((s) => ({
      session_id: s.session_id,
      events: s.events.map(({ properties: _, message_id, ...event }) => ({
        ...event,
        message_ref: messageRef(key, message_id),
      })),
    })),
  };
}

/** The chain as the analytics sink knows it; undefined when the user's key is gone (erased). */
export function openChain(chain: ChainOnWire, key: Buffer | undefined): SessionChainRecord | undefined {
  if (!isSealedChain(chain)) return chain;
  if (!key) return undefined;
  const { user_ref, sealed, sessions, ...rest } = chain;
  const opened = openValue(key, `${chain.project_id}:${user_ref}`, sealed) as SealedChainValue;
  let i = 0;
  const open = ({ message_ref, message_id, ...e }: SealedSessionEvent): SessionEventRecord => {
    const id = message_ref ? opened.message_ids?.[i] : message_id;
    if (typeof id !== 'string' || id === '') {
      throw new Error(message_ref ? 'message_ref without a sealed message id' : 'no message id, sealed or clear');
    }
    return { ...e, message_id: id, properties: opened.properties[i++]! };
  };
  return {
    ...rest,
    user_id: opened.user_id,
    sessions: sessions.map((s) => ({ session_id: s.session_id, events: s.events.map(open) })),
  };
}
