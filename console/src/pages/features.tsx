import type { ChartConfiguration, Plugin } from 'chart.js';
import { useMemo, useState } from 'preact/hooks';
import { ChartView, SERIES } from '../components/chart';
import { CoveredDays, DateRangePicker } from '../components/date-range';
import { QueryForm } from '../components/form';
import { EmptyState } from '../components/send-events';
import { type Column, DataTable } from '../components/table';
import { ErrorNotice, Facts, Page, Section, WhenLoaded } from '../components/ui';
import { count, num, percent, words } from '../format';
import { useApi, useDateRange, useQueryParam } from '../hooks';

interface Feature {
  name: string;
  visibility_rate: number;
  engagement_conversion: number;
  discovery_gap_score: number;
  quadrant: string;
  users_saw: number;
  users_used: number;
  avg_days_to_discovery: number;
  context?: { visible_in_empty_state: number; avg_data_volume_when_used: number };
}

interface FeatureDetail {
  name: string;
  usage_patterns: { first_week_vr: number; month_2_plus_vr: number; avg_days_to_discovery: number };
  discovery_methods: Record<string, number>;
  segmented_usage: { segment: string; visibility_rate: number; engagement_conversion: number }[];
}

export const QUADRANTS: Record<string, string> = {
  high_visibility_high_usage: 'Seen and used',
  high_visibility_low_usage: 'Seen, rarely used',
  low_visibility_high_usage: 'Hidden, used when found',
  low_visibility_low_usage: 'Hidden and unused',
};

/**
 * Writes each feature's name beside its point, so the chart reads without hovering; features on
 * the same spot share one label ("a, b +2").
 */
const pointLabels: Plugin<'scatter'> = {
  id: 'pointLabels',
  afterDatasetsDraw(chart) {
    const spots = new Map<string, { x: number; y: number; names: string[] }>();
    chart.data.datasets.forEach((dataset, i) => {
      chart.getDatasetMeta(i).data.forEach((point, j) => {
        const name = (dataset.data[j] as { label?: string } | undefined)?.label;
        if (!name) return;
        const key = `${Math.round(point.x / 4)}:${Math.round(point.y / 4)}`;
        const spot = spots.get(key) ?? { x: point.x, y: point.y, names: [] };
        spot.names.push(name);
        spots.set(key, spot);
      });
    });
    const { ctx } = chart;
    ctx.save();
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillStyle = '#1f2937';
    for (const { x, y, names } of spots.values()) {
      const text = names.length > 2 ? `${names.slice(0, 2).join(', ')} +${names.length - 2}` : names.join(', ');
      const width = ctx.measureText(text).width;
      // Near the right edge the label goes to the left of its point.
      const left = x + 10 + width > chart.chartArea.right + 20 ? x - 10 - width : x + 10;
      ctx.fillText(text, left, y - 6);
    }
    ctx.restore();
  },
};

function scatter(features: Feature[]): ChartConfiguration<'scatter'> {
  return {
    type: 'scatter',
    data: {
      datasets: Object.entries(QUADRANTS).map(([quadrant, label], i) => ({
        label,
        data: features
          .filter((f) => f.quadrant === quadrant)
          .map((f) => ({ x: f.visibility_rate * 100, y: f.engagement_conversion * 100, label: f.name })),
        backgroundColor: SERIES[i]!.color,
        borderColor: SERIES[i]!.color,
        pointStyle: SERIES[i]!.shape,
        pointRadius: 7,
        pointHoverRadius: 9,
      })),
    },
    options: {
      layout: { padding: { right: 24, top: 18 } },
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
              return `${p.label}: VR ${p.x.toFixed(1)} %, EC ${p.y.toFixed(1)} %`;
            },
          },
        },
      },
    },
    plugins: [pointLabels],
  };
}

const COLUMNS: Column[] = [
  'Feature',
  'Quadrant',
  { label: <abbr title="Visibility rate">VR</abbr>, num: true },
  { label: <abbr title="Engagement conversion">EC</abbr>, num: true },
  { label: <abbr title="Discovery gap score">DGS</abbr>, num: true },
  ...['Users saw', 'Users used', 'Days to discovery', 'Seen in empty state'].map((label) => ({ label, num: true })),
];

export function Features() {
  const range = useDateRange();
  const [segment] = useQueryParam('segment');
  const [open, setOpen] = useState<string>();
  const query = `${range.query}${segment ? `&segment=${encodeURIComponent(segment)}` : ''}`;
  const loaded = useApi<{ features: Feature[]; date_range: { start: string; end: string } }>(
    `/analytics/features?${query}&per_page=100`,
  );
  const features = useMemo(
    () =>
      [...(loaded.data?.features ?? [])].sort(
        (a, b) => b.discovery_gap_score - a.discovery_gap_score || a.name.localeCompare(b.name),
      ),
    [loaded.data],
  );
  const chart = useMemo(() => scatter(features), [features]);
  return (
    <Page
      title="Features"
      lead="Which features users see versus use. A high discovery gap (DGS) marks a feature that people use once they find it, but rarely find."
    >
      <div class="toolbar">
        <DateRangePicker />
        <QueryForm
          param="segment"
          formLabel="Segment"
          label="Segment (property:value)"
          placeholder="plan:pro"
          submit="Filter"
        />
      </div>
      <WhenLoaded loaded={loaded} what="features">
        {(data) =>
          features.length === 0 ? (
            <EmptyState
              title="No feature data in this range yet"
              events={[
                {
                  user_id: 'u_42',
                  event: 'feature_impression',
                  properties: { page: '/reports', feature: 'export_csv' },
                },
                { user_id: 'u_42', event: 'feature_used', properties: { page: '/reports', feature: 'export_csv' } },
              ]}
            >
              <p>
                Features appear when the service receives <code>feature_impression</code> (the feature became visible)
                and <code>feature_used</code> events naming them in <code>properties.feature</code>.
              </p>
            </EmptyState>
          ) : (
            <>
              <CoveredDays range={data.date_range} />
              <Section class="card" title="Visibility versus engagement">
                <ChartView
                  size="large"
                  config={chart}
                  label={`Scatter chart of ${features.length} features by visibility rate and engagement; the table below lists the same numbers.`}
                />
              </Section>
              <Section class="card" title="Features by discovery gap">
                <DataTable label="Features" columns={COLUMNS}>
                  {features.map((f) => (
                    <tr key={f.name}>
                      <th scope="row">
                        <button
                          type="button"
                          class="link"
                          aria-expanded={open === f.name}
                          onClick={() => setOpen(open === f.name ? undefined : f.name)}
                        >
                          {f.name}
                        </button>
                      </th>
                      <td>{QUADRANTS[f.quadrant] ?? words(f.quadrant)}</td>
                      <td class="num">{percent(f.visibility_rate)}</td>
                      <td class="num">{percent(f.engagement_conversion)}</td>
                      <td class="num">{num(f.discovery_gap_score, 3)}</td>
                      <td class="num">{count(f.users_saw)}</td>
                      <td class="num">{count(f.users_used)}</td>
                      <td class="num">{num(f.avg_days_to_discovery)}</td>
                      <td class="num">{percent(f.context?.visible_in_empty_state)}</td>
                    </tr>
                  ))}
                </DataTable>
              </Section>
              {open && <FeatureDetailPanel name={open} query={query} />}
            </>
          )
        }
      </WhenLoaded>
    </Page>
  );
}

function FeatureDetailPanel({ name, query }: { name: string; query: string }) {
  const { data, error, loading } = useApi<FeatureDetail>(`/analytics/features/${encodeURIComponent(name)}?${query}`);
  return (
    <section class="card" aria-labelledby="feature-detail" aria-busy={loading}>
      <h2 id="feature-detail">{name}</h2>
      <ErrorNotice error={error} />
      {data && (
        <div class="grid">
          <div>
            <h3>Usage over time</h3>
            <Facts
              items={[
                ["VR in users' first week", percent(data.usage_patterns.first_week_vr)],
                ['VR from their second month', percent(data.usage_patterns.month_2_plus_vr)],
                ['Days to discovery', num(data.usage_patterns.avg_days_to_discovery)],
              ]}
            />
          </div>
          <div>
            <h3>How users found it</h3>
            <Facts
              items={Object.entries(data.discovery_methods).map(([method, share]) => [words(method), percent(share)])}
            />
          </div>
          {data.segmented_usage.length > 0 && (
            <div>
              <h3>By segment</h3>
              <Facts
                items={data.segmented_usage.map((s) => [
                  s.segment,
                  `VR ${percent(s.visibility_rate)}, EC ${percent(s.engagement_conversion)}`,
                ])}
              />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
