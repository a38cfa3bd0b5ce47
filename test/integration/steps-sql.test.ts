import assert from 'node:assert/strict';
import { type StepEvent, stepOf, stepSql } from '../../domain/workflows/steps.js';
import { closeServices, services } from './helpers.js';

/** The step rule exists twice (TypeScript for the miner, SQL for job drop-offs): they must agree. */
describe('stepSql agrees with stepOf', () => {
  after(() => closeServices());

  const cases: [string, StepEvent['properties'] | Record<string, unknown>][] = [
    ['page_view', { page: '/home' }],
    ['page_view', { page: '' }],
    ['page_view', { page: 7 }],
    ['page_view', {}],
    ['feature_used', { feature: 'export' }],
    ['feature_used', { feature: '' }],
    ['feature_used', { feature: ['x'] }],
    ['feature_used', {}],
    ['click', { page: '/home', element: '#a' }],
    ['feature_impression', { feature: 'export' }],
    ['report_exported', { page: '/reports' }],
    ['purchase', { page: '/checkout' }],
  ];

  for (const goal of [undefined, 'purchase', 'page_view']) {
    it(`for goal ${goal ?? '(none)'}`, async () => {
      const { rows } = await services().db.query<{ step: string | null }>(
        `select ${stepSql('e', '$3::text')} as step
         from unnest($1::text[], $2::jsonb[]) with ordinality as e(event, properties, n) order by n`,
        [cases.map(([event]) => event), cases.map(([, p]) => JSON.stringify(p)), goal ?? null],
      );
      assert.deepEqual(
        rows.map((r) => r.step ?? undefined),
        cases.map(([event, properties]) => stepOf({ event, at: 0, offset: 0, properties }, goal)),
      );
    });
  }
});
