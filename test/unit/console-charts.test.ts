import assert from 'node:assert/strict';
import { dayLabel, dayLine, daySparkline } from '../../console/src/charts.js';

/** The chart's options as plain functions and values (Chart.js calls them with more arguments). */
type Fn = (...args: unknown[]) => unknown;
interface Axis {
  title?: { display: boolean; text: string };
  ticks: { callback: Fn };
  beginAtZero?: boolean;
  max?: number;
}
const optionsOf = (config: { options?: unknown }) =>
  config.options as {
    scales: { x: Axis; y: Axis };
    plugins: { tooltip: { callbacks: { title: Fn; label: Fn } } };
  };

const series = {
  days: ['2026-12-01', '2026-12-02', '2026-12-03'],
  values: [4, 9, 12],
  what: 'Users',
  format: (v: number) => `${v}`,
  color: '#1d4ed8',
};

describe('console charts over days', () => {
  it('names the days in UTC, short on the axis and long on hover', () => {
    assert.equal(dayLabel('2026-12-03'), 'Dec 3');
    assert.equal(dayLabel('2026-12-03', true), 'Dec 3, 2026');
    assert.equal(dayLabel('2026-01-01T23:30:00Z'), 'Jan 1');
  });

  it('a line has titled axes, dated ticks, a y axis from 0, and the date and value on hover', () => {
    const options = optionsOf(dayLine(series));
    assert.deepEqual(options.scales.x.title, { display: true, text: 'Day (UTC)' });
    assert.deepEqual(options.scales.y.title, { display: true, text: 'Users' });
    assert.equal(options.scales.y.beginAtZero, true);
    assert.deepEqual(
      [0, 1, 2].map((i) => options.scales.x.ticks.callback('', i)),
      ['Dec 1', 'Dec 2', 'Dec 3'],
    );
    const { title, label } = options.plugins.tooltip.callbacks;
    assert.equal(title([{ dataIndex: 2 }]), 'Dec 3, 2026');
    assert.equal(label({ parsed: { y: 12 }, dataset: { label: 'Users' } }), 'Users: 12');
  });

  it('a sparkline dates its first and last day and labels its scale with the value format', () => {
    const options = optionsOf(daySparkline({ ...series, what: 'Friction Index', format: (v) => v.toFixed(2), max: 1 }));
    assert.deepEqual(
      [0, 1, 2].map((i) => options.scales.x.ticks.callback('', i)),
      ['Dec 1', null, 'Dec 3'],
    );
    assert.equal(options.scales.y.ticks.callback(0.5), '0.50');
    assert.equal(options.scales.y.max, 1);
    assert.equal(
      options.plugins.tooltip.callbacks.label({ parsed: { y: 0.25 }, dataset: { label: 'Friction Index' } }),
      'Friction Index: 0.25',
    );
  });
});
