import type { Step } from './mining.js';

/** An event as stored per user (session_events), with what the step rules read. */
export interface StepEvent {
  event: string;
  /** epoch ms (occurred_at) */
  at: number;
  /** arrival order within the user's partition (kafka_offset): breaks timestamp ties */
  offset: number;
  properties: { page?: unknown; feature?: unknown };
}

const named = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The step an event is on a path (docs/metrics.md, Workflows): the goal event is the goal;
 * page_view → its page; feature_used → its feature; click and feature_impression → none (too
 * fine, and seeing is not doing); any other (custom) event → its name.
 */
export function stepOf(e: StepEvent, goal?: string): string | undefined {
  if (e.event === goal) return goal;
  switch (e.event) {
    case 'page_view':
      return named(e.properties.page);
    case 'feature_used':
      return named(e.properties.feature) ?? e.event;
    case 'click':
    case 'feature_impression':
      return undefined;
    default:
      return e.event;
  }
}

const namedSql = (value: string, otherwise: string) =>
  `case when jsonb_typeof(${value}) = 'string' and ${value} #>> '{}' <> '' then ${value} #>> '{}' else ${otherwise} end`;

/**
 * stepOf in SQL, for queries that should not load every event into memory: `e` names a row with
 * `event` and `properties` (session_events), `goal` a text expression. A test holds the two equal.
 */
export const stepSql = (e: string, goal: string) => `case
    when ${e}.event = ${goal} then ${goal}
    when ${e}.event = 'page_view' then ${namedSql(`${e}.properties->'page'`, 'null')}
    when ${e}.event = 'feature_used' then ${namedSql(`${e}.properties->'feature'`, `${e}.event`)}
    when ${e}.event in ('click', 'feature_impression') then null
    else ${e}.event end`;

/** The raw steps of a user's (or a session's) events: timestamp order, ties in arrival order. */
export function stepsOf(events: StepEvent[], goal?: string): Step[] {
  return [...events]
    .sort((a, b) => a.at - b.at || a.offset - b.offset)
    .flatMap((e) => {
      const name = stepOf(e, goal);
      return name === undefined ? [] : [{ name, at: e.at }];
    });
}
