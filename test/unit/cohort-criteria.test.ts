import assert from 'node:assert/strict';
import {
  COHORT_METRICS,
  COHORT_OPERATORS,
  checkCohortCriteria,
  compileCohortCriteria,
  type CohortCriteria,
} from '../../domain/cohorts/criteria.js';

describe('cohort criteria', () => {
  describe('checkCohortCriteria accepts valid criteria', () => {
    const cases: [string, CohortCriteria][] = [
      ['one metric, one operator', { sessions: { gte: 3 } }],
      ['every operator', { events: { gte: 1, gt: 0, lte: 10, lt: 11, eq: 5, ne: 6, between: [1, 10] } }],
      ['every metric', Object.fromEntries(Object.keys(COHORT_METRICS).map((m) => [m, { gte: 0 }]))],
      ['between with low == high', { days_active: { between: [3, 3] } }],
      ['negative and fractional numbers', { friction_index: { gt: -1.5, lt: 0.25 } }],
      ['zero', { features_used: { eq: 0 } }],
    ];
    for (const [label, criteria] of cases) {
      it(label, () => {
        assert.equal(checkCohortCriteria(criteria), undefined);
      });
    }
  });

  describe('checkCohortCriteria reports the first problem', () => {
    const cases: [string, unknown, string, string][] = [
      ['empty criteria', {}, 'criteria', 'required'],
      ['unknown metric', { logins: { gte: 1 } }, 'criteria.logins', 'unknown_metric'],
      [
        'column name instead of metric',
        { avg_session_seconds: { gte: 1 } },
        'criteria.avg_session_seconds',
        'unknown_metric',
      ],
      ['inherited name as metric', { toString: { gte: 1 } }, 'criteria.toString', 'unknown_metric'],
      ['__proto__ as metric', JSON.parse('{"__proto__": {"gte": 1}}'), 'criteria.__proto__', 'unknown_metric'],
      ['condition is a number', { sessions: 3 }, 'criteria.sessions', 'invalid_type'],
      ['condition is a string', { sessions: 'gte 3' }, 'criteria.sessions', 'invalid_type'],
      ['condition is null', { sessions: null }, 'criteria.sessions', 'invalid_type'],
      ['condition is an array', { sessions: [3] }, 'criteria.sessions', 'invalid_type'],
      ['condition is an empty object', { sessions: {} }, 'criteria.sessions', 'invalid_type'],
      ['unknown operator', { sessions: { ge: 3 } }, 'criteria.sessions.ge', 'unknown_operator'],
      ['SQL operator as operator', { sessions: { '>=': 3 } }, 'criteria.sessions.>=', 'unknown_operator'],
      [
        'inherited name as operator',
        { sessions: { constructor: 3 } },
        'criteria.sessions.constructor',
        'unknown_operator',
      ],
      ['string operand', { sessions: { gte: '3' } }, 'criteria.sessions.gte', 'invalid_type'],
      ['null operand', { sessions: { lt: null } }, 'criteria.sessions.lt', 'invalid_type'],
      ['boolean operand', { sessions: { eq: true } }, 'criteria.sessions.eq', 'invalid_type'],
      ['array operand', { sessions: { ne: [1] } }, 'criteria.sessions.ne', 'invalid_type'],
      ['NaN operand', { sessions: { gt: NaN } }, 'criteria.sessions.gt', 'invalid_type'],
      ['Infinity operand', { sessions: { lte: Infinity } }, 'criteria.sessions.lte', 'invalid_type'],
      ['between with a number', { sessions: { between: 3 } }, 'criteria.sessions.between', 'invalid_value'],
      ['between with no values', { sessions: { between: [] } }, 'criteria.sessions.between', 'invalid_value'],
      ['between with one value', { sessions: { between: [1] } }, 'criteria.sessions.between', 'invalid_value'],
      ['between with three values', { sessions: { between: [1, 2, 3] } }, 'criteria.sessions.between', 'invalid_value'],
      ['between with low > high', { sessions: { between: [5, 1] } }, 'criteria.sessions.between', 'invalid_value'],
      ['between with a string', { sessions: { between: [1, '5'] } }, 'criteria.sessions.between', 'invalid_value'],
      ['between with null', { sessions: { between: [null, 5] } }, 'criteria.sessions.between', 'invalid_value'],
      [
        'between with an object',
        { sessions: { between: { low: 1, high: 5 } } },
        'criteria.sessions.between',
        'invalid_value',
      ],
      ['between with NaN', { sessions: { between: [NaN, 5] } }, 'criteria.sessions.between', 'invalid_value'],
      [
        'first bad metric wins',
        { sessions: { gte: 1 }, logins: { gte: 1 }, events: 3 },
        'criteria.logins',
        'unknown_metric',
      ],
      ['first bad operator wins', { sessions: { gte: 1, lt: 'x', foo: 1 } }, 'criteria.sessions.lt', 'invalid_type'],
    ];
    for (const [label, criteria, field, reason] of cases) {
      it(`${label} → ${field} ${reason}`, () => {
        const problem = checkCohortCriteria(criteria as CohortCriteria);
        assert.ok(problem, 'expected a problem');
        assert.equal(problem.field, field);
        assert.equal(problem.reason, reason);
        assert.equal(typeof problem.message, 'string');
        assert.notEqual(problem.message, '');
      });
    }

    it('names the known metrics and operators in its messages', () => {
      assert.equal(
        checkCohortCriteria({ logins: { gte: 1 } })?.message,
        'Unknown metric logins; known: features_used, days_active, sessions, events, friction_index, avg_session_length, last_seen_days.',
      );
      assert.equal(
        checkCohortCriteria({ sessions: { ge: 1 } })?.message,
        `Unknown operator ge; known: ${COHORT_OPERATORS.join(', ')}.`,
      );
      assert.equal(
        checkCohortCriteria({ sessions: { between: [2, 1] } })?.message,
        'criteria.sessions.between must be [low, high] with low <= high.',
      );
      assert.equal(checkCohortCriteria({ sessions: { gte: 'x' } })?.message, 'criteria.sessions.gte must be a number.');
      assert.equal(checkCohortCriteria({})?.message, 'criteria needs at least one metric.');
    });
  });

  describe('compileCohortCriteria', () => {
    const cases: [string, CohortCriteria, number, string, number[]][] = [
      ['gte from $1', { sessions: { gte: 3 } }, 1, 'm.sessions >= $1::float8', [3]],
      ['gt', { events: { gt: 10 } }, 1, 'm.events > $1::float8', [10]],
      ['lte', { days_active: { lte: 7 } }, 1, 'm.days_active <= $1::float8', [7]],
      ['lt', { features_used: { lt: 2 } }, 1, 'm.features_used < $1::float8', [2]],
      ['eq', { friction_index: { eq: 0.5 } }, 1, 'm.friction_index = $1::float8', [0.5]],
      ['ne', { sessions: { ne: 0 } }, 1, 'm.sessions <> $1::float8', [0]],
      ['renamed column', { avg_session_length: { gte: 60 } }, 1, 'm.avg_session_seconds >= $1::float8', [60]],
      [
        'computed column',
        { last_seen_days: { lte: 30 } },
        1,
        '(extract(epoch from now() - m.last_seen_at) / 86400) <= $1::float8',
        [30],
      ],
      ['numbering from $4', { sessions: { gte: 3 } }, 4, 'm.sessions >= $4::float8', [3]],
      ['between', { events: { between: [5, 50] } }, 1, 'm.events between $1::float8 and $2::float8', [5, 50]],
      ['between from $3', { events: { between: [5, 50] } }, 3, 'm.events between $3::float8 and $4::float8', [5, 50]],
      [
        'several operators on one metric',
        { sessions: { gte: 3, lt: 10, ne: 5 } },
        2,
        'm.sessions >= $2::float8 and m.sessions < $3::float8 and m.sessions <> $4::float8',
        [3, 10, 5],
      ],
      [
        'several metrics with between in the middle',
        { sessions: { gt: 1 }, events: { between: [10, 20] }, days_active: { eq: 4 } },
        7,
        'm.sessions > $7::float8 and m.events between $8::float8 and $9::float8 and m.days_active = $10::float8',
        [1, 10, 20, 4],
      ],
    ];
    for (const [label, criteria, firstParam, sql, params] of cases) {
      it(label, () => {
        assert.deepEqual(compileCohortCriteria(criteria, firstParam), { sql, params });
      });
    }

    it('never puts operand values into the SQL text', () => {
      const { sql, params } = compileCohortCriteria({ sessions: { gte: 123456 }, events: { between: [777, 888] } }, 1);
      assert.doesNotMatch(sql, /123456|777|888/);
      assert.deepEqual(params, [123456, 777, 888]);
    });
  });
});
