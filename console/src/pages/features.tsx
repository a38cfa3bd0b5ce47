import { useMemo, useState } from 'preact/hooks';
import { dayLabel, dayLines } from '../charts';
import { ChartView, SERIES } from '../components/chart';
import { CoveredDays, DateRangePicker } from '../components/date-range';
import { QueryForm } from '../components/form';
import { EmptyState } from '../components/send-events';
import { type Column, DataTable } from '../components/table';
import { Explain } from '../components/explain';
import { ErrorNotice, Facts, Page, Section, WhenLoaded } from '../components/ui';
import { count, num, percent, words } from '../format';
import { useApi, useDateRange, useQueryParam } from '../hooks';
import { QUADRANTS, type QuadrantThresholds, scatter } from '../scatter';

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
  /** Every day of the range, oldest first; absent from services older than the field. */
  usage_over_time?: FeatureDay[];
}

interface FeatureDay {
  date: string;
  users_saw: number;
  users_used: number;
  impressions: number;
  uses: number;
}

const COLUMNS: Column[] = [
  'Feature',
  'Quadrant',
  { label: <Explain term="visibility_rate">VR</Explain>, num: true },
  { label: <Explain term="engagement_conversion">EC</Explain>, num: true },
  { label: <Explain term="discovery_gap_score">DGS</Explain>, num: true },
  { label: 'Users saw', num: true },
  { label: 'Users used', num: true },
  { label: <Explain term="days_to_discovery">Days to discovery</Explain>, num: true },
  { label: 'Seen in empty state', num: true },
];

export function Features() {
  const range = useDateRange();
  const [segment] = useQueryParam('segment');
  const [open, setOpen] = useState<string>();
  const query = `${range.query}${segment ? `&segment=${encodeURIComponent(segment)}` : ''}`;
  const loaded = useApi<{
    features: Feature[];
    date_range: { start: string; end: string };
    quadrant_thresholds: QuadrantThresholds;
  }>(`/analytics/features?${query}`);
  const features = useMemo(
    () =>
      [...(loaded.data?.features ?? [])].sort(
        (a, b) => b.discovery_gap_score - a.discovery_gap_score || a.name.localeCompare(b.name),
      ),
    [loaded.data],
  );
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
              <FeatureScatter features={features} thresholds={data.quadrant_thresholds} />
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

/** The users who saw and who used the feature, per day. */
function usageChart(days: FeatureDay[]) {
  return dayLines({
    days: days.map((d) => d.date),
    what: 'Users',
    format: (value) => count(value),
    lines: [
      { label: 'Users who saw it', values: days.map((d) => d.users_saw), color: SERIES[2].color },
      { label: 'Users who used it', values: days.map((d) => d.users_used), color: SERIES[0].color },
    ],
  });
}

/** The features by VR and EC, with the thresholds the API assigned their quadrants with. */
function FeatureScatter({ features, thresholds }: { features: Feature[]; thresholds: QuadrantThresholds }) {
  const chart = useMemo(() => scatter(features, thresholds, SERIES), [features, thresholds]);
  return (
    <Section class="card" title="Visibility versus engagement">
      <ChartView
        size="large"
        config={chart}
        label={`Scatter chart of ${features.length} features by visibility rate and engagement, with the quadrant thresholds at ${percent(thresholds.visibility_rate)} visibility and ${percent(thresholds.engagement_conversion)} engagement; the table below lists the same numbers.`}
      />
      <p class="muted chart-note">
        Dashed lines: the quadrant thresholds (this project's settings); a feature at or above a line is high on it.
        Names that would overlap are left out: hover or tap a point for its name and values.
      </p>
    </Section>
  );
}

function FeatureDetailPanel({ name, query }: { name: string; query: string }) {
  const { data, error, loading } = useApi<FeatureDetail>(`/analytics/features/${encodeURIComponent(name)}?${query}`);
  const days = data?.usage_over_time;
  const chart = useMemo(() => days && usageChart(days), [days]);
  return (
    <section class="card" aria-labelledby="feature-detail" aria-busy={loading}>
      <h2 id="feature-detail">{name}</h2>
      <ErrorNotice error={error} />
      {data && days && chart && (
        <div class="usage-over-time">
          <h3>Usage over time</h3>
          <ChartView
            size="medium"
            config={chart}
            label={`Line chart of the users who saw and who used ${name} on each of ${days.length} days; the table below lists the same numbers.`}
          />
          <details>
            <summary>Daily numbers</summary>
            <DataTable
              label={`${name} by day`}
              columns={[
                'Day',
                ...['Users saw', 'Users used', 'Impressions', 'Uses'].map((label) => ({ label, num: true })),
              ]}
            >
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{dayLabel(d.date, true)}</th>
                  <td class="num">{count(d.users_saw)}</td>
                  <td class="num">{count(d.users_used)}</td>
                  <td class="num">{count(d.impressions)}</td>
                  <td class="num">{count(d.uses)}</td>
                </tr>
              ))}
            </DataTable>
          </details>
        </div>
      )}
      {data && (
        <div class="grid">
          <div>
            <h3>By user tenure</h3>
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
