import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import { ApiFailure } from '../api';
import { ChartView } from '../components/chart';
import { CoveredDays, DateRangePicker } from '../components/date-range';
import { QueryForm } from '../components/form';
import { Explain } from '../components/explain';
import { EmptyState } from '../components/send-events';
import { ErrorNotice, Facts, Loading, Page, Section } from '../components/ui';
import { count, num, percent } from '../format';
import { useApi, useDateRange, useQueryParam } from '../hooks';

interface ContextSplit {
  count: number;
  success_rate: number;
  friction_index: number;
  contextual_success_rate?: number;
  common_issues?: string[];
}

interface Analysis {
  event: string;
  total_occurrences: number;
  context_breakdown: { with_data_present: ContextSplit; empty_state: ContextSplit };
  recommendations: string[];
  date_range: { start: string; end: string };
}

const COMMON_EVENTS = ['page_view', 'feature_impression', 'feature_used', 'click'];

export function EventContext() {
  const range = useDateRange();
  const [event] = useQueryParam('event');
  const { data, error, loading } = useApi<Analysis>(
    event ? `/analytics/context/events/${encodeURIComponent(event)}?${range.query}` : null,
  );
  const unseen = error instanceof ApiFailure && error.status === 404;
  const chart = useMemo<ChartConfiguration<'bar'> | undefined>(
    () =>
      data && {
        type: 'bar',
        data: {
          labels: ['With data present', 'Empty state'],
          datasets: [
            {
              label: 'Success rate (%)',
              data: [
                data.context_breakdown.with_data_present.success_rate * 100,
                data.context_breakdown.empty_state.success_rate * 100,
              ],
              backgroundColor: '#15803d',
            },
            {
              label: 'Friction Index (× 100)',
              data: [
                data.context_breakdown.with_data_present.friction_index * 100,
                data.context_breakdown.empty_state.friction_index * 100,
              ],
              backgroundColor: '#b45309',
            },
          ],
        },
        options: {
          scales: {
            x: { title: { display: true, text: 'What the user saw' } },
            y: { min: 0, max: 100, title: { display: true, text: 'Percent (Friction Index × 100)' } },
          },
          plugins: {
            legend: { position: 'bottom' },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${num(item.parsed.y ?? 0, 1)}` } },
          },
        },
      },
    [data],
  );
  return (
    <Page
      title="Event context"
      lead="How an event turns out depending on what the user saw: their data, or an empty state."
    >
      <div class="toolbar">
        <QueryForm
          param="event"
          formLabel="Event"
          label="Event name"
          placeholder="feature_used"
          required
          suggestions={COMMON_EVENTS}
          submit="Analyse"
        />
        <DateRangePicker />
      </div>
      {!event && <p>Name an event to see its success rate and friction with data present and in empty states.</p>}
      {/* 404: the event was never recorded, which the empty state below explains. */}
      {!unseen && <ErrorNotice error={error} />}
      {loading && <Loading what="the analysis" />}
      {unseen && (
        <EmptyState
          title={`No ${event} events recorded yet`}
          events={[
            {
              user_id: 'u_42',
              event,
              properties: { page: '/reports', success: false, ui_context: { empty_state: true } },
            },
            {
              user_id: 'u_7',
              event,
              properties: { page: '/reports', success: true, ui_context: { data_present: true, data_volume: 120 } },
            },
          ]}
        >
          <p>
            Send the event with <code>ui_context</code> (<code>empty_state</code> or <code>data_present</code>) and,
            when your app knows it, <code>success</code>.
          </p>
        </EmptyState>
      )}
      {data && chart && (
        <>
          <CoveredDays range={data.date_range} />
          <p>
            <strong>{count(data.total_occurrences)}</strong> occurrences of <code>{data.event}</code> in this range.
          </p>
          <div class="grid">
            <Split title="With data present" split={data.context_breakdown.with_data_present} />
            <Split title="Empty state" split={data.context_breakdown.empty_state} />
          </div>
          <Section class="card" title="Success and friction by context">
            <ChartView
              size="medium"
              config={chart}
              label="Bar chart of success rate and Friction Index with data present and in the empty state; the same numbers are above."
            />
          </Section>
          {data.recommendations.length > 0 && (
            <Section class="card" title="Recommendations">
              <ul>
                {data.recommendations.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </Section>
          )}
        </>
      )}
    </Page>
  );
}

function Split({ title, split }: { title: string; split: ContextSplit }) {
  return (
    <section class="card" aria-label={title}>
      <h2>{title}</h2>
      <Facts
        items={[
          ['Occurrences', count(split.count)],
          [
            <Explain term="success_rate">Success rate</Explain>,
            split.count > 0 ? percent(split.success_rate) : '– (no occurrences)',
          ],
          [<Explain term="friction_index">Friction Index</Explain>, split.count > 0 ? num(split.friction_index) : '–'],
          split.contextual_success_rate !== undefined && [
            <Explain term="contextual_success_rate">Contextual success rate</Explain>,
            split.count > 0 ? percent(split.contextual_success_rate) : '–',
          ],
          !!split.common_issues && [
            'Common issues',
            split.common_issues.length > 0 ? split.common_issues.join(', ') : 'none',
          ],
        ]}
      />
    </section>
  );
}
