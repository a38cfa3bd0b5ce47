import type { ChartConfiguration } from 'chart.js';
import { useMemo, useState } from 'preact/hooks';
import { daySparkline } from '../charts';
import { ChartView } from '../components/chart';
import { CoveredDays, DateRangePicker } from '../components/date-range';
import { type FrictionAlert, useFrictionAlerts } from '../components/live-alerts';
import { Explain } from '../components/explain';
import { EmptyState } from '../components/send-events';
import { Badge, Bar, Facts, Page, Section, ToggleButton, WhenLoaded } from '../components/ui';
import { count, duration, num, when } from '../format';
import { type Loaded, useApi, useDateRange } from '../hooks';

interface FrictionPoint {
  page: string;
  element: string | null;
  friction_index: number;
  signals: { dead_clicks: number; rage_clicks: number; confusion_loops: number; avg_idle_time: number };
  users_affected: number;
  recommended_actions: string[];
}

interface Trend {
  workflow: string;
  friction_history: { date: string; friction_index: number }[];
  trend: string;
  percent_change: number;
  alert_level: string;
}

const tone = (index: number) => (index >= 0.5 ? 'bad' : index >= 0.3 ? 'warn' : 'info');
const LEVEL_TONE: Record<string, 'bad' | 'warn' | 'info' | 'muted'> = {
  critical: 'bad',
  warning: 'warn',
  info: 'info',
  none: 'muted',
};

function sparkline(trend: Trend): ChartConfiguration<'line'> {
  const color = trend.alert_level === 'critical' ? '#b91c1c' : trend.alert_level === 'warning' ? '#b45309' : '#1d4ed8';
  return daySparkline({
    days: trend.friction_history.map((h) => h.date),
    values: trend.friction_history.map((h) => h.friction_index),
    what: 'Friction Index',
    format: (value) => num(value),
    color,
  });
}

export function Friction() {
  const range = useDateRange();
  const points = useApi<{ friction_points: FrictionPoint[]; date_range: { start: string; end: string } }>(
    `/analytics/friction?${range.query}`,
  );
  const trends = useApi<TrendPage>(`/analytics/friction/trends?${range.query}`);
  const live = useFrictionAlerts();
  const [showCalm, setShowCalm] = useState(false);
  const calm = points.data?.friction_points.filter((p) => p.friction_index === 0).length ?? 0;
  return (
    <Page
      title="Friction"
      lead="Where users struggle: dead and rage clicks, confusion loops and idle time, worst first, with what to do about it."
    >
      <div class="toolbar">
        <DateRangePicker />
      </div>
      <LiveAlerts status={live.status} alerts={live.alerts} />
      <TrendList loaded={trends} />
      <Section title="Friction points">
        <WhenLoaded loaded={points} what="friction points">
          {(data) =>
            data.friction_points.length === 0 ? (
              <EmptyState
                title="No friction measured in this range"
                events={[
                  { user_id: 'u_42', event: 'page_view', properties: { page: '/reports' } },
                  {
                    user_id: 'u_42',
                    event: 'click',
                    properties: {
                      page: '/reports',
                      element: '#export',
                      element_type: 'button',
                      x: 412,
                      y: 88,
                      ui_response: false,
                    },
                  },
                ]}
              >
                <p>
                  Friction comes from <code>page_view</code> and <code>click</code> events: clicks without a UI response
                  (<code>ui_response: false</code>), bursts of clicks on one spot, pages visited back and forth, long
                  pauses.
                </p>
              </EmptyState>
            ) : (
              <>
                <CoveredDays range={data.date_range} />
                <ol class="cards" aria-label="Friction points, worst first">
                  {data.friction_points
                    .filter((p) => p.friction_index > 0 || showCalm)
                    .map((p) => (
                      <li key={`${p.page} ${p.element}`} class="card point">
                        <h3>
                          {p.page}
                          {p.element !== null && <span class="element"> · {p.element}</span>}
                          {p.element === null && <span class="muted"> (whole page)</span>}
                        </h3>
                        <p class="index">
                          <Explain term="friction_index">Friction Index</Explain>{' '}
                          <strong>{num(p.friction_index)}</strong>{' '}
                          <Bar value={p.friction_index} tone={tone(p.friction_index)} />
                        </p>
                        <PointSignals point={p} />
                        {p.recommended_actions.length > 0 && (
                          <>
                            <h4>Recommended</h4>
                            <ul class="actions-list">
                              {p.recommended_actions.map((a) => (
                                <li key={a}>{a}</li>
                              ))}
                            </ul>
                          </>
                        )}
                      </li>
                    ))}
                </ol>
                {calm > 0 && (
                  <ToggleButton
                    open={showCalm}
                    set={setShowCalm}
                    show={`Show ${calm} more points without friction`}
                    hide={`Hide the ${calm} points without friction`}
                  />
                )}
              </>
            )
          }
        </WhenLoaded>
      </Section>
    </Page>
  );
}

/**
 * A page point's signals and users are the page's. An element point's clicks and users are the
 * element's own (users with a dead click or a rage burst on it), while its loops and idle time
 * are its page's: shown apart, so an element nobody misclicked does not read as "Users 0" beside
 * the page's loops.
 */
function PointSignals({ point: p }: { point: FrictionPoint }) {
  if (p.element === null) {
    return (
      <Facts
        kind="signals"
        items={[
          ['Dead clicks', count(p.signals.dead_clicks)],
          ['Rage clicks', count(p.signals.rage_clicks)],
          ['Loops', count(p.signals.confusion_loops)],
          ['Avg idle', duration(p.signals.avg_idle_time)],
          ['Users affected', count(p.users_affected)],
        ]}
      />
    );
  }
  const clicked = p.signals.dead_clicks + p.signals.rage_clicks > 0;
  return (
    <>
      <Facts
        kind="signals"
        items={[
          ['Dead clicks', count(p.signals.dead_clicks)],
          ['Rage clicks', count(p.signals.rage_clicks)],
          clicked && ['Users misclicking it', count(p.users_affected)],
        ]}
      />
      {!clicked && <p class="muted">No dead or rage clicks on {p.element}: its index comes from its page.</p>}
      <Facts
        kind="signals"
        class="page-signals"
        items={[
          ['Page loops', count(p.signals.confusion_loops)],
          ['Page avg idle', duration(p.signals.avg_idle_time)],
        ]}
      />
    </>
  );
}

function LiveAlerts({ status, alerts }: { status: string; alerts: FrictionAlert[] }) {
  return (
    <section class="card live" aria-labelledby="live-title">
      <div class="live-head">
        <h2 id="live-title">Live alerts</h2>
        <span class={`live-status live-status--${status}`} role="status">
          {status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
      </div>
      <div aria-live="polite" aria-relevant="additions">
        {alerts.length === 0 ? (
          <p class="muted">
            Alerts appear here the moment a page&apos;s Friction Index crosses the alert threshold (from the stream,
            while this page is open).
          </p>
        ) : (
          <ul class="alerts">
            {alerts.map((a) => (
              <li key={a.alert_id}>
                <Badge tone={tone(a.friction_index)}>FI {num(a.friction_index)}</Badge> <strong>{a.page}</strong>,{' '}
                {count(a.users_affected)} users affected, {a.day} <span class="muted">({when(a.timestamp)})</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

const TRENDS_SHOWN = 6;

/** Fewer days than this and the week over week comparison has no week before to compare with. */
const MIN_TREND_DAYS = 8;

type TrendPage = { trends: Trend[]; total: number };

/** Trends that need attention first, in the API's order (alert level, then the steepest rise). */
function TrendList({ loaded }: { loaded: Loaded<TrendPage> }) {
  const [all, setAll] = useState(false);
  const listed = loaded.data?.trends ?? [];
  const trends = all ? listed : listed.slice(0, TRENDS_SHOWN);
  const charts = useMemo(() => trends.map(sparkline), [listed, all]);
  return (
    <Section title="Trends, last 28 days">
      <WhenLoaded loaded={loaded} what="trends">
        {() => (
          <>
            {trends.length === 0 && (
              <p class="muted">
                No friction in the last 28 days yet: a trend follows a page or a workflow path day by day once its{' '}
                <code>page_view</code> and <code>click</code> events show friction on at least one day.
              </p>
            )}
            <ul class="cards trends">
              {trends.map((t, i) => (
                <li key={t.workflow} class="card trend">
                  <h3>{t.workflow}</h3>
                  <ChartView
                    size="spark"
                    config={charts[i]!}
                    label={`Daily Friction Index of ${t.workflow}, ${t.friction_history.length} days from ${t.friction_history[0]?.date ?? '–'} to ${t.friction_history.at(-1)?.date ?? '–'}`}
                  />
                  <p>
                    <Badge tone={LEVEL_TONE[t.alert_level] ?? 'muted'}>
                      {t.alert_level === 'none' ? 'No alert' : `Alert: ${t.alert_level}`}
                    </Badge>{' '}
                    {t.friction_history.length < MIN_TREND_DAYS ? (
                      <span
                        class="muted"
                        title={`A trend compares the last 7 days with the 7 before: ${t.friction_history.length} of ${MIN_TREND_DAYS} days so far`}
                      >
                        not enough history yet ({t.friction_history.length}{' '}
                        {t.friction_history.length === 1 ? 'day' : 'days'})
                      </span>
                    ) : (
                      <>
                        {t.trend} ({t.percent_change > 0 ? '+' : ''}
                        {num(t.percent_change)} %)
                      </>
                    )}
                  </p>
                </li>
              ))}
            </ul>
            {listed.length > TRENDS_SHOWN && (
              <ToggleButton
                open={all}
                set={setAll}
                show={
                  (loaded.data?.total ?? 0) > listed.length
                    ? `Show the ${listed.length} of ${loaded.data!.total} trends that need attention most`
                    : `Show all ${listed.length} trends`
                }
                hide="Show the first six"
              />
            )}
          </>
        )}
      </WhenLoaded>
    </Section>
  );
}
