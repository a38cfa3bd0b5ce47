import assert from 'node:assert/strict';
import { NAMED_RANGES, parseDateRange, type DateRangeResult } from '../../domain/date-range.js';

describe('date ranges', () => {
  describe('named ranges end today (UTC) and include both ends', () => {
    const cases: [string, string, string, string][] = [
      ['last_7_days', '2026-03-10T12:00:00.000Z', '2026-03-04', '2026-03-10'],
      ['last_30_days', '2026-03-10T12:00:00.000Z', '2026-02-09', '2026-03-10'],
      ['last_90_days', '2026-03-10T12:00:00.000Z', '2025-12-11', '2026-03-10'],
      ['last_7_days', '2026-03-10T00:00:00.000Z', '2026-03-04', '2026-03-10'],
      ['last_7_days', '2026-03-10T23:59:59.999Z', '2026-03-04', '2026-03-10'],
      ['last_7_days', '2026-03-11T00:00:00.000Z', '2026-03-05', '2026-03-11'],
      ['last_7_days', '2026-01-03T08:00:00.000Z', '2025-12-28', '2026-01-03'],
      ['last_30_days', '2024-03-01T05:00:00.000Z', '2024-02-01', '2024-03-01'],
      ['last_7_days', '2024-03-02T05:00:00.000Z', '2024-02-25', '2024-03-02'],
      // UTC, whatever the local offset of the instant's writer
      ['last_7_days', '2026-03-10T23:30:00.000-05:00', '2026-03-05', '2026-03-11'],
      ['last_7_days', '2026-03-10T01:00:00.000+05:00', '2026-03-03', '2026-03-09'],
    ];
    for (const [name, now, start, end] of cases) {
      it(`${name} at ${now} → ${start}..${end}`, () => {
        assert.deepEqual(parseDateRange(name, undefined, undefined, Date.parse(now)), { range: { start, end } });
      });
    }

    for (const [name, days] of Object.entries(NAMED_RANGES)) {
      it(`${name} spans exactly ${days} days`, () => {
        const result = parseDateRange(name, undefined, undefined, Date.parse('2026-07-15T09:00:00Z'));
        assert.ok('range' in result);
        const span = (Date.parse(result.range.end) - Date.parse(result.range.start)) / 86_400_000 + 1;
        assert.equal(span, days);
        assert.equal(result.range.end, '2026-07-15');
      });
    }
  });

  describe('custom ranges', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const cases: [string, string | undefined, string | undefined, DateRangeResult][] = [
      ['valid', '2026-01-01', '2026-01-31', { range: { start: '2026-01-01', end: '2026-01-31' } }],
      ['single day', '2026-02-28', '2026-02-28', { range: { start: '2026-02-28', end: '2026-02-28' } }],
      ['leap day', '2024-02-29', '2024-03-01', { range: { start: '2024-02-29', end: '2024-03-01' } }],
      ['in the future', '2030-01-01', '2030-12-31', { range: { start: '2030-01-01', end: '2030-12-31' } }],
      [
        'missing start',
        undefined,
        '2026-01-31',
        { field: 'start', reason: 'required', message: 'start (YYYY-MM-DD) is required with date_range=custom.' },
      ],
      [
        'missing end',
        '2026-01-01',
        undefined,
        { field: 'end', reason: 'required', message: 'end (YYYY-MM-DD) is required with date_range=custom.' },
      ],
      [
        'missing both',
        undefined,
        undefined,
        { field: 'start', reason: 'required', message: 'start (YYYY-MM-DD) is required with date_range=custom.' },
      ],
      [
        'start 2026-02-30',
        '2026-02-30',
        '2026-03-31',
        { field: 'start', reason: 'invalid_format', message: 'start must be a date YYYY-MM-DD.' },
      ],
      [
        'end 2026-02-29 (not a leap year)',
        '2026-02-01',
        '2026-02-29',
        { field: 'end', reason: 'invalid_format', message: 'end must be a date YYYY-MM-DD.' },
      ],
      [
        'end 2026-04-31',
        '2026-04-01',
        '2026-04-31',
        { field: 'end', reason: 'invalid_format', message: 'end must be a date YYYY-MM-DD.' },
      ],
      [
        'month 13',
        '2026-13-01',
        '2026-12-31',
        { field: 'start', reason: 'invalid_format', message: 'start must be a date YYYY-MM-DD.' },
      ],
      [
        'day 00',
        '2026-01-00',
        '2026-01-31',
        { field: 'start', reason: 'invalid_format', message: 'start must be a date YYYY-MM-DD.' },
      ],
      [
        'no zero padding',
        '2026-1-1',
        '2026-01-31',
        { field: 'start', reason: 'invalid_format', message: 'start must be a date YYYY-MM-DD.' },
      ],
      [
        'with a time',
        '2026-01-01T00:00:00Z',
        '2026-01-31',
        { field: 'start', reason: 'invalid_format', message: 'start must be a date YYYY-MM-DD.' },
      ],
      [
        'empty start',
        '',
        '2026-01-31',
        { field: 'start', reason: 'invalid_format', message: 'start must be a date YYYY-MM-DD.' },
      ],
      [
        'not a date',
        '2026-01-01',
        'tomorrow',
        { field: 'end', reason: 'invalid_format', message: 'end must be a date YYYY-MM-DD.' },
      ],
      [
        'start after end',
        '2026-02-01',
        '2026-01-31',
        { field: 'end', reason: 'invalid_value', message: 'end must not be before start.' },
      ],
      [
        'start a year after end',
        '2027-01-01',
        '2026-12-31',
        { field: 'end', reason: 'invalid_value', message: 'end must not be before start.' },
      ],
    ];
    for (const [label, start, end, expected] of cases) {
      it(`${label}: ${start}..${end}`, () => {
        assert.deepEqual(parseDateRange('custom', start, end, now), expected);
      });
    }
  });

  describe('start and end go with custom only', () => {
    const cases: [string, string | undefined, string | undefined][] = [
      ['last_7_days', '2026-01-01', '2026-01-31'],
      ['last_30_days', '2026-01-01', undefined],
      ['last_90_days', undefined, '2026-01-31'],
      ['last_7_days', '', undefined],
    ];
    for (const [name, start, end] of cases) {
      it(`${name} with start=${start} end=${end}`, () => {
        assert.deepEqual(parseDateRange(name, start, end, Date.parse('2026-03-10T12:00:00Z')), {
          field: 'start',
          reason: 'not_allowed',
          message: 'start and end go with date_range=custom only.',
        });
      });
    }
  });

  describe('unknown names', () => {
    const unknown = {
      field: 'date_range',
      reason: 'invalid_value',
      message: 'date_range must be one of: last_7_days, last_30_days, last_90_days, custom.',
    };
    for (const name of ['last_14_days', 'Last_7_Days', 'CUSTOM', '', 'yesterday']) {
      it(JSON.stringify(name), () => {
        assert.deepEqual(parseDateRange(name, undefined, undefined, Date.parse('2026-03-10T12:00:00Z')), unknown);
        assert.deepEqual(parseDateRange(name, '2026-01-01', '2026-01-31', Date.parse('2026-03-10T12:00:00Z')), unknown);
      });
    }
  });

  it('defaults now to the current time', () => {
    const before = new Date().toISOString().slice(0, 10);
    const result = parseDateRange('last_7_days', undefined, undefined);
    const after = new Date().toISOString().slice(0, 10);
    assert.ok('range' in result);
    assert.ok(result.range.end === before || result.range.end === after);
  });
});

describe('date ranges: regressions', () => {
  it('treats names inherited by every object as unknown', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const result = parseDateRange(name, undefined, undefined, Date.parse('2026-11-21T12:00:00Z'));
      assert.ok('field' in result, name);
      assert.deepEqual([result.field, result.reason], ['date_range', 'invalid_value'], name);
    }
  });
});
