import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { launchChromium } from '../../test/browser/chromium.js';

export interface Series {
  label: string;
  /** [seconds since start, value] */
  points: [number, number][];
  /** right-hand axis */
  right?: boolean;
}

export interface Panel {
  title: string;
  left: string;
  right?: string;
  series: Series[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#17becf'];

/**
 * Line charts of a benchmark run as one PNG: Chart.js drawing into headless Chromium (the same
 * Debian Chromium the browser tests use), so no native canvas module is needed.
 */
export async function plotPng(file: string, title: string, panels: Panel[]): Promise<void> {
  // The UMD build beside the package's main file (the exports map does not list it).
  const main = createRequire(import.meta.url).resolve('chart.js');
  const chartJs = fs.readFileSync(path.join(path.dirname(main), 'chart.umd.min.js'), 'utf8');
  const configs = panels.map((panel) => ({
    type: 'line',
    data: {
      datasets: panel.series.map((s, i) => ({
        label: s.label,
        data: s.points.map(([x, y]) => ({ x, y })),
        borderColor: COLORS[i % COLORS.length],
        backgroundColor: COLORS[i % COLORS.length],
        borderWidth: 1.5,
        pointRadius: s.points.length > 300 ? 0 : 1.5,
        showLine: true,
        yAxisID: s.right ? 'right' : 'left',
      })),
    },
    options: {
      animation: false,
      responsive: false,
      plugins: { title: { display: true, text: panel.title }, legend: { position: 'bottom' } },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'seconds' } },
        left: { type: 'linear', position: 'left', beginAtZero: true, title: { display: true, text: panel.left } },
        ...(panel.right
          ? {
              right: {
                type: 'linear',
                position: 'right',
                beginAtZero: true,
                grid: { drawOnChartArea: false },
                title: { display: true, text: panel.right },
              },
            }
          : {}),
      },
    },
  }));
  const html = `<!doctype html><html><body style="margin:0;background:#fff;font-family:sans-serif">
<h3 style="margin:8px 16px">${title.replace(/</g, '&lt;')}</h3>
${panels.map((_, i) => `<canvas id="c${i}" width="1100" height="320"></canvas>`).join('\n')}
<script>${chartJs}</script>
<script>const configs = ${JSON.stringify(configs)};
configs.forEach((config, i) => new Chart(document.getElementById('c' + i), config));
document.body.dataset.ready = '1';</script></body></html>`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 60 + panels.length * 324 } });
    await page.setContent(html);
    await page.waitForSelector('body[data-ready="1"]');
    await page.screenshot({ path: file, fullPage: true });
  } finally {
    await browser.close();
  }
}
