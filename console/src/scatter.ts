import type { Chart, ChartConfiguration, Plugin } from 'chart.js';

/**
 * The Features page's scatter of visibility against engagement: the quadrant thresholds the API
 * classifies with drawn as labelled lines, and each feature's name placed beside its point where
 * it overlaps no other name, point or line label (the others are left to hover). Placement is pure
 * (placeLabels), so unit tests read it; the drawn label boxes are also written on the canvas
 * (`data-labels`, CSS pixels) for the browser test to check.
 */

export interface ScatterFeature {
  name: string;
  visibility_rate: number;
  engagement_conversion: number;
  quadrant: string;
}

export const QUADRANTS: Record<string, string> = {
  high_visibility_high_usage: 'Seen and used',
  high_visibility_low_usage: 'Seen, rarely used',
  low_visibility_high_usage: 'Hidden, used when found',
  low_visibility_low_usage: 'Hidden and unused',
};

/** The thresholds the API assigned the quadrants with (GET /analytics/features `quadrant_thresholds`), ratios in [0, 1]. */
export interface QuadrantThresholds {
  visibility_rate: number;
  engagement_conversion: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const inside = (a: Box, area: Box): boolean =>
  a.x >= area.x && a.y >= area.y && a.x + a.width <= area.x + area.width && a.y + a.height <= area.y + area.height;

export interface LabelWanted {
  x: number;
  y: number;
  text: string;
  width: number;
}

/**
 * Places each label (in the order given: the most important first) at the first of eight spots
 * around its point that stays inside `area` and overlaps no label placed before, no point marker
 * (`markers`, boxes) and no fixed box (`taken`); a label with no free spot is not drawn.
 */
export function placeLabels(
  wanted: LabelWanted[],
  area: Box,
  markers: Box[],
  taken: Box[],
  height = 14,
  gap = 9,
): { placed: (Box & { text: string })[]; hidden: string[] } {
  const placed: (Box & { text: string })[] = [];
  const hidden: string[] = [];
  for (const { x, y, text, width } of wanted) {
    const spots: [number, number][] = [
      [x + gap, y - height / 2],
      [x - gap - width, y - height / 2],
      [x - width / 2, y - gap - height],
      [x - width / 2, y + gap],
      // Diagonals: beside the point's edge, clear of its marker above or below.
      [x + 2, y - gap - height],
      [x + 2, y + gap],
      [x - 2 - width, y - gap - height],
      [x - 2 - width, y + gap],
    ];
    const free = spots
      .map(([left, top]) => ({ x: left, y: top, width, height }))
      .find(
        (box) =>
          inside(box, area) &&
          !placed.some((p) => overlaps(p, box)) &&
          !markers.some((m) => overlaps(m, box)) &&
          !taken.some((t) => overlaps(t, box)),
      );
    if (free) placed.push({ ...free, text });
    else hidden.push(text);
  }
  return { placed, hidden };
}

const MARKER = 7;
const FONT = '12px system-ui, sans-serif';
const LINE_COLOR = '#6b7280';

/** Dashed lines at the thresholds, under the points. */
function thresholdLines(t: QuadrantThresholds): Plugin<'scatter'> {
  return {
    id: 'quadrantLines',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea: a, scales } = chart;
      const x = scales.x!.getPixelForValue(t.visibility_rate * 100);
      const y = scales.y!.getPixelForValue(t.engagement_conversion * 100);
      ctx.save();
      ctx.strokeStyle = LINE_COLOR;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      ctx.moveTo(x, a.top);
      ctx.lineTo(x, a.bottom);
      ctx.moveTo(a.left, y);
      ctx.lineTo(a.right, y);
      ctx.stroke();
      ctx.restore();
    },
    afterDatasetsDraw(chart) {
      drawLabels(chart, t);
    },
  };
}

const thresholdText = (what: string, value: number) => `${what} ${Math.round(value * 1000) / 10} %`;

/** The line labels, then the feature names around the points, recorded on the canvas. */
function drawLabels(chart: Chart<'scatter'>, t: QuadrantThresholds) {
  const { ctx, chartArea: a, scales } = chart;
  ctx.save();
  ctx.font = FONT;
  ctx.textBaseline = 'top';
  const height = 14;
  const lineX = scales.x!.getPixelForValue(t.visibility_rate * 100);
  const lineY = scales.y!.getPixelForValue(t.engagement_conversion * 100);
  const vrText = thresholdText('VR threshold', t.visibility_rate);
  const ecText = thresholdText('EC threshold', t.engagement_conversion);
  const vrWidth = ctx.measureText(vrText).width;
  const ecWidth = ctx.measureText(ecText).width;
  // The VR label at the top of its line (left of it when it would leave the chart), the EC label at the right end of its line.
  const lines: (Box & { text: string })[] = [
    {
      text: vrText,
      x: lineX + 4 + vrWidth > a.right ? lineX - 4 - vrWidth : lineX + 4,
      y: a.top + 2,
      width: vrWidth,
      height,
    },
    {
      text: ecText,
      x: a.right - ecWidth - 4,
      y: lineY - height - 3 < a.top ? lineY + 3 : lineY - height - 3,
      width: ecWidth,
      height,
    },
  ];
  const spots = new Map<string, { x: number; y: number; names: string[]; rank: number }>();
  chart.data.datasets.forEach((dataset, i) => {
    chart.getDatasetMeta(i).data.forEach((point, j) => {
      const raw = dataset.data[j] as { label?: string; rank?: number } | undefined;
      if (!raw?.label) return;
      // Features on the same spot share one label ("a, b +2").
      const key = `${Math.round(point.x / 4)}:${Math.round(point.y / 4)}`;
      const spot = spots.get(key) ?? { x: point.x, y: point.y, names: [], rank: Infinity };
      spot.names.push(raw.label);
      spot.rank = Math.min(spot.rank, raw.rank ?? Infinity);
      spots.set(key, spot);
    });
  });
  const wanted = [...spots.values()]
    .sort((p, q) => p.rank - q.rank)
    .map(({ x, y, names }) => {
      const text = names.length > 2 ? `${names.slice(0, 2).join(', ')} +${names.length - 2}` : names.join(', ');
      return { x, y, text, width: ctx.measureText(text).width };
    });
  const markers = wanted.map((w) => ({ x: w.x - MARKER, y: w.y - MARKER, width: 2 * MARKER, height: 2 * MARKER }));
  const area = { x: a.left, y: a.top, width: a.right - a.left, height: a.bottom - a.top };
  const { placed, hidden } = placeLabels(wanted, area, markers, lines, height);
  ctx.fillStyle = '#374151';
  for (const l of lines) ctx.fillText(l.text, l.x, l.y);
  ctx.fillStyle = '#1f2937';
  for (const p of placed) ctx.fillText(p.text, p.x, p.y);
  ctx.restore();
  chart.canvas.dataset.labels = JSON.stringify([...lines, ...placed]);
  chart.canvas.dataset.hiddenLabels = String(hidden.length);
}

/** Same order as the page's table: the labels of the features listed first are placed first. */
export function scatter(
  features: ScatterFeature[],
  thresholds: QuadrantThresholds,
  colors: readonly { color: string; shape: string }[],
): ChartConfiguration<'scatter'> {
  return {
    type: 'scatter',
    data: {
      datasets: Object.entries(QUADRANTS).map(([quadrant, label], i) => ({
        label,
        data: features.flatMap((f, rank) =>
          f.quadrant === quadrant
            ? [{ x: f.visibility_rate * 100, y: f.engagement_conversion * 100, label: f.name, rank }]
            : [],
        ),
        backgroundColor: colors[i]!.color,
        borderColor: colors[i]!.color,
        pointStyle: colors[i]!.shape as 'circle',
        pointRadius: 6,
        pointHoverRadius: 8,
        // A feature at 0 % or 100 % shows its whole marker, not half of it.
        clip: false as const,
      })),
    },
    options: {
      layout: { padding: { right: 8, top: 8 } },
      scales: {
        x: { min: 0, max: 100, title: { display: true, text: 'Visibility rate (% of sessions that showed it)' } },
        y: { min: 0, max: 100, title: { display: true, text: 'Engagement (% of viewers who used it)' } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { usePointStyle: true } },
        tooltip: {
          callbacks: {
            label: (item) => {
              const p = item.raw as { x: number; y: number; label: string };
              return `${p.label}: VR ${p.x.toFixed(1)} %, EC ${p.y.toFixed(1)} % (${item.dataset.label ?? ''})`;
            },
          },
        },
      },
    },
    plugins: [thresholdLines(thresholds)],
  };
}
