import assert from 'node:assert/strict';
// The cron parser pg-boss evaluates its schedules with (its own dependency): the hand-written
// lastDue/nextDue must agree with what pg-boss will fire.
import cronParser from 'cron-parser';
import { SCHEDULES, SCHEDULE_CRON, lastDue, nextDue, periodBefore } from '../../domain/reports/schedule.js';

describe('report schedules', () => {
  describe('lastDue and nextDue agree with the cron expressions', () => {
    const instants = [
      '2026-03-10T12:00:00.000Z', // a Tuesday
      '2026-03-09T05:59:59.999Z', // a Monday, just before 06:00
      '2026-03-09T06:00:00.000Z', // exactly at the time
      '2026-03-01T06:00:00.001Z', // a Sunday, the 1st
      '2026-01-01T00:00:00.000Z',
      '2024-02-29T23:59:59.000Z', // leap day
      '2025-12-31T06:30:00.000Z',
    ];
    for (const schedule of SCHEDULES) {
      for (const at of instants) {
        it(`${schedule} around ${at}`, () => {
          const now = new Date(at);
          const cron = cronParser.parseExpression(SCHEDULE_CRON[schedule], { tz: 'UTC', currentDate: now });
          assert.equal(nextDue(schedule, now).toISOString(), cron.next().toISOString());
          // prev() is strictly before now; lastDue counts now itself as due.
          const exact = cronParser.parseExpression(SCHEDULE_CRON[schedule], {
            tz: 'UTC',
            currentDate: new Date(now.getTime() + 1),
          });
          assert.equal(lastDue(schedule, now).toISOString(), exact.prev().toISOString());
        });
      }
    }
  });

  it('covers the last 1, 7 or 30 complete UTC days before the sending day', () => {
    const monday = new Date('2026-03-09T06:00:00.000Z');
    assert.deepEqual(periodBefore('daily', monday), { start: '2026-03-08', end: '2026-03-08' });
    assert.deepEqual(periodBefore('weekly', monday), { start: '2026-03-02', end: '2026-03-08' });
    assert.deepEqual(periodBefore('monthly', new Date('2026-03-01T06:00:00.000Z')), {
      start: '2026-01-30',
      end: '2026-02-28',
    });
    // a manual run late in the day covers the same days as that day's scheduled run
    assert.deepEqual(periodBefore('daily', new Date('2026-03-09T23:59:59.999Z')), periodBefore('daily', monday));
  });
});
