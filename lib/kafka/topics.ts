import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every topic the service owns: name, partitions, retention and its Avro value schema.
 * PI_TOPIC_NAMESPACE prefixes names (and consumer groups), so test runs never share topics.
 */
export interface TopicSpec {
  /** Logical name, also the Avro schema file in schemas/avro. */
  base: string;
  compacted: boolean;
  /** -1 keeps forever: raw topics are the replay source of every materialized table. */
  retentionMs: number;
}

export const TOPICS = {
  events: { base: 'pi.events.v1', compacted: false, retentionMs: -1 },
  users: { base: 'pi.users.v1', compacted: true, retentionMs: -1 },
  /** Derived from events by the sessionize processor; a replay writes it again, so a week is plenty. */
  sessions: { base: 'pi.sessions.v1', compacted: false, retentionMs: 7 * 24 * 60 * 60 * 1000 },
} as const satisfies Record<string, TopicSpec>;

export type TopicKey = keyof typeof TOPICS;

const avroDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas', 'avro');

export function namespace(env: NodeJS.ProcessEnv = process.env): string {
  const ns = env.PI_TOPIC_NAMESPACE ?? '';
  return ns === '' ? '' : `${ns}.`;
}

export function topicName(key: TopicKey, env: NodeJS.ProcessEnv = process.env): string {
  return `${namespace(env)}${TOPICS[key].base}`;
}

export function groupId(processor: string, env: NodeJS.ProcessEnv = process.env): string {
  return `${namespace(env)}pi.${processor}`;
}

export function avroSchema(key: TopicKey): string {
  return fs.readFileSync(path.join(avroDir, `${TOPICS[key].base}.avsc`), 'utf8');
}

/** Partition key of per-user topics: every event of a user lands on one partition, in order. */
export function userKey(projectId: string, userId: string): string {
  return `${projectId}:${userId}`;
}
