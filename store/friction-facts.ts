import { FRICTION_FACTS } from '../domain/friction/index.js';
import { big, int } from './additive-deltas.js';

/**
 * The Friction Index's facts (domain/friction/index.ts) as SQL, built from the one list: tables
 * that keep them (friction_page_daily, user_friction, workflow_steps) store counts as int and
 * times (`…_ms`) as bigint; reads cast every fact to float8, so pg answers numbers.
 */
const isTime = (fact: string) => fact.endsWith('_ms');

/** The facts as additive columns (store/additive-deltas.ts). */
export const FRICTION_FACT_COLUMNS: [string, string][] = FRICTION_FACTS.map((f) => [f, isTime(f) ? big : int]);

/** `views, clicks, …` */
export const FACT_NAMES = FRICTION_FACTS.join(', ');

/** `p.views::float8 as views, …` */
export const factsOf = (alias: string) => FRICTION_FACTS.map((f) => `${alias}.${f}::float8 as ${f}`).join(', ');

/** `coalesce(sum(p.views), 0)::float8 as views, …`: a ratio of sums is what the index takes. */
export const summedFacts = (alias: string) =>
  FRICTION_FACTS.map((f) => `coalesce(sum(${alias}.${f}), 0)::float8 as ${f}`).join(', ');

/** The facts of a jsonb object `s` (written by JSON.stringify), cast to their column types. */
export const factsFromJson = (s: string) =>
  FRICTION_FACTS.map((f) => `(${s}->>'${f}')::float8::${isTime(f) ? 'bigint' : 'int'}`).join(', ');
