import type { ChartConfiguration } from 'chart.js';

/**
 * Chart configurations the console draws over days: every chart says what its axes are, dates
 * its points and shows the date and the value on hover. Pure (no DOM), so unit tests read them.
 */

const shortDay = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** A YYYY-MM-DD day (UTC) as "Dec 3" (`long`: "Dec 3, 2026"). */
export const dayLabel = (isoDay: string, long = false): string =>
  (long ? longDay : shortDay).format(new Date(`${isoDay.slice(0, 10)}T00:00:00Z`));

export interface DaySeries {
  /** YYYY-MM-DD, oldest first. */
  days: string[];
  values: number[];
  /** What a value is, with its unit: the y axis title ("Users", "Friction Index"). */
  what: string;
  /** A value as shown on hover. */
  format: (value: number) => string;
  color: string;
  /** The y axis's top, when the values have one (an index in [0, 1]). */
  max?: number;
}

/** One value per day as a line: a dated x axis, a titled y axis from 0, and hover values. */
export function dayLine(series: DaySeries): ChartConfiguration<'line'> {
  return dayLines({ ...series, lines: [{ label: series.what, values: series.values, color: series.color }] });
}

/**
 * Several values per day, one line each, on one titled y axis (`what`): a dated x axis, a legend,
 * and each line's value of the day on hover.
 */
export function dayLines(
  series: Omit<DaySeries, 'values' | 'color'> & { lines: { label: string; values: number[]; color: string }[] },
): ChartConfiguration<'line'> {
  return {
    type: 'line',
    data: {
      labels: series.days,
      datasets: series.lines.map((line) => ({
        label: line.label,
        data: line.values,
        borderColor: line.color,
        backgroundColor: `${line.color}22`,
        pointRadius: 3,
        pointHoverRadius: 5,
      })),
    },
    options: {
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: {
          title: { display: true, text: 'Day (UTC)' },
          ticks: { callback: (_value, i) => dayLabel(series.days[i] ?? ''), maxRotation: 0, autoSkip: true },
        },
        y: { beginAtZero: true, max: series.max, title: { display: true, text: series.what } },
      },
      plugins: {
        legend: { display: series.lines.length > 1, position: 'bottom' },
        tooltip: {
          callbacks: {
            title: (items) => dayLabel(series.days[items[0]?.dataIndex ?? 0] ?? '', true),
            label: (item) => `${item.dataset.label ?? series.what}: ${series.format(item.parsed.y ?? 0)}`,
          },
        },
      },
    },
  };
}

/**
 * The same series small: the first and last day under it and the top value beside it, so a
 * sparkline still reads as dated and scaled; hover shows each day's value.
 */
export function daySparkline(series: DaySeries): ChartConfiguration<'line'> {
  const line = dayLine(series);
  const dataset = line.data.datasets[0]!;
  Object.assign(dataset, { fill: true, pointRadius: 0, borderWidth: 2, tension: 0.3 });
  const last = series.days.length - 1;
  line.options!.scales = {
    x: {
      grid: { display: false },
      ticks: {
        autoSkip: false,
        maxRotation: 0,
        font: { size: 10 },
        callback: (_value, i) => (i === 0 || i === last ? dayLabel(series.days[i] ?? '') : null),
      },
    },
    y: {
      beginAtZero: true,
      max: series.max,
      grid: { display: false },
      ticks: { maxTicksLimit: 2, font: { size: 10 }, callback: (value) => series.format(Number(value)) },
    },
  };
  return line;
}
