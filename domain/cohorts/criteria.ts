/**
 * Custom cohort criteria: `{ "<metric>": { "<operator>": value, … }, … }`, every condition ANDed.
 * Metrics are columns of user_metrics (maintained by the pipeline); compiled to parameterised SQL.
 */
export const COHORT_METRICS = {
  features_used: 'm.features_used',
  days_active: 'm.days_active',
  sessions: 'm.sessions',
  events: 'm.events',
  friction_index: 'm.friction_index',
  avg_session_length: 'm.avg_session_seconds',
  last_seen_days: `(extract(epoch from now() - m.last_seen_at) / 86400)`,
} as const;
export type CohortMetric = keyof typeof COHORT_METRICS;

export const COHORT_OPERATORS = ['gte', 'gt', 'lte', 'lt', 'eq', 'ne', 'between'] as const;
type Operator = (typeof COHORT_OPERATORS)[number];
const SQL_OPERATOR: Record<Exclude<Operator, 'between'>, string> = {
  gte: '>=',
  gt: '>',
  lte: '<=',
  lt: '<',
  eq: '=',
  ne: '<>',
};

export type CohortCriteria = Record<string, Record<string, unknown>>;

export interface CriteriaProblem {
  field: string;
  reason: string;
  message: string;
}

/** The first problem of a criteria object, or undefined when it is valid. */
export function checkCohortCriteria(criteria: CohortCriteria): CriteriaProblem | undefined {
  const metrics = Object.keys(criteria);
  if (metrics.length === 0)
    return { field: 'criteria', reason: 'required', message: 'criteria needs at least one metric.' };
  for (const metric of metrics) {
    const field = `criteria.${metric}`;
    if (!Object.hasOwn(COHORT_METRICS, metric)) {
      return {
        field,
        reason: 'unknown_metric',
        message: `Unknown metric ${metric}; known: ${Object.keys(COHORT_METRICS).join(', ')}.`,
      };
    }
    const conditions = criteria[metric]!;
    if (
      conditions === null ||
      typeof conditions !== 'object' ||
      Array.isArray(conditions) ||
      Object.keys(conditions).length === 0
    ) {
      return { field, reason: 'invalid_type', message: `${field} must be an object like {"gte": 3}.` };
    }
    for (const [operator, operand] of Object.entries(conditions)) {
      const at = `${field}.${operator}`;
      if (!(COHORT_OPERATORS as readonly string[]).includes(operator)) {
        return {
          field: at,
          reason: 'unknown_operator',
          message: `Unknown operator ${operator}; known: ${COHORT_OPERATORS.join(', ')}.`,
        };
      }
      if (operator === 'between') {
        const ok =
          Array.isArray(operand) &&
          operand.length === 2 &&
          operand.every((v) => Number.isFinite(v)) &&
          (operand[0] as number) <= (operand[1] as number);
        if (!ok) return { field: at, reason: 'invalid_value', message: `${at} must be [low, high] with low <= high.` };
      } else if (!Number.isFinite(operand)) {
        return { field: at, reason: 'invalid_type', message: `${at} must be a number.` };
      }
    }
  }
  return undefined;
}

/** A SQL condition over `user_metrics m`, with its parameters numbered from `firstParam`. */
export function compileCohortCriteria(criteria: CohortCriteria, firstParam: number): { sql: string; params: number[] } {
  const parts: string[] = [];
  const params: number[] = [];
  const param = (v: number) => {
    params.push(v);
    return `$${firstParam + params.length - 1}`;
  };
  for (const [metric, conditions] of Object.entries(criteria)) {
    const column = COHORT_METRICS[metric as CohortMetric];
    for (const [operator, operand] of Object.entries(conditions)) {
      if (operator === 'between') {
        const [low, high] = operand as [number, number];
        parts.push(`${column} between ${param(low)}::float8 and ${param(high)}::float8`);
      } else {
        parts.push(
          `${column} ${SQL_OPERATOR[operator as Exclude<Operator, 'between'>]} ${param(operand as number)}::float8`,
        );
      }
    }
  }
  return { sql: parts.join(' and '), params };
}
