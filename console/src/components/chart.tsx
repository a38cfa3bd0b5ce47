import { Chart, type ChartConfiguration } from 'chart.js';
import * as chartjs from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// The parts the console draws, named once: the bundler keeps only these (all of chart.js's
// `registerables` would ship every chart type).
Chart.register(
  chartjs.BarController,
  chartjs.BarElement,
  chartjs.CategoryScale,
  chartjs.Filler,
  chartjs.Legend,
  chartjs.LineController,
  chartjs.LineElement,
  chartjs.LinearScale,
  chartjs.PointElement,
  chartjs.ScatterController,
  chartjs.Tooltip,
);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#374151';
Chart.defaults.animation = false;

/**
 * A Chart.js chart on a canvas. The canvas is an image with a label for screen readers; every
 * chart in the console has a table or list beside it that carries the same numbers.
 */
export function ChartView({
  config,
  label,
  size,
}: {
  config: ChartConfiguration;
  label: string;
  size: 'large' | 'medium' | 'spark';
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, ...config.options },
    });
    // The axis titles as drawn, on the canvas: its pixels carry no text for a test or a tool to read.
    canvas.current!.dataset.axes = JSON.stringify(
      Object.values(chart.scales).flatMap((scale) => {
        const title = (scale.options as { title?: { display?: boolean; text?: string | string[] } }).title;
        return title?.display && title.text ? [String(title.text)] : [];
      }),
    );
    return () => chart.destroy();
  }, [config]);
  return (
    <div class={`chart chart--${size}`}>
      <canvas ref={canvas} role="img" aria-label={label}>
        {label}
      </canvas>
    </div>
  );
}

/** Colours that keep 4.5:1 against white, with a distinct point shape each (colour is never the only cue). */
export const SERIES = [
  { color: '#15803d', shape: 'circle' },
  { color: '#b45309', shape: 'triangle' },
  { color: '#1d4ed8', shape: 'rect' },
  { color: '#4b5563', shape: 'rectRot' },
  { color: '#9d174d', shape: 'star' },
] as const;
