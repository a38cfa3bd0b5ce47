import type { ChartConfiguration } from 'chart.js';
import { useMemo, useState } from 'preact/hooks';
import { ChartView } from '../components/chart';
import { Explain } from '../components/explain';
import { QueryForm } from '../components/form';
import { PathsDiagram } from '../components/paths-diagram';
import { EmptyState } from '../components/send-events';
import { ACTIONS, type Column, DataTable } from '../components/table';
import { Page, Section, WhenLoaded } from '../components/ui';
import { efficiencyWords } from '../explain';
import { count, duration, num, percent } from '../format';
import { useApi, useQueryParam } from '../hooks';
import { START, isFolded } from '../paths';

interface Workflow {
  workflow_id: string;
  goal: string;
  path: string[];
  frequency: number;
  efficiency_score: number;
  avg_time: number;
  completion_rate: number;
  occurrences: number;
  users: number;
  user_share: number;
}

interface Efficiency {
  workflow_id: string;
  goal: string;
  optimal_steps: number;
  actual_avg_steps: number;
  efficiency_score: number;
  friction_points: { step: string; friction_index: number; common_issues: string[] }[];
}

export function Workflows() {
  const [goal, setGoal] = useQueryParam('goal');
  const goals = useApi<{ goals: string[] }>('/settings/goals');
  const loaded = useApi<{ workflows: Workflow[] }>(
    goal ? `/analytics/workflows?goal=${encodeURIComponent(goal)}` : '/analytics/workflows',
  );
  const byGoal = useMemo(() => {
    const groups = new Map<string, Workflow[]>();
    for (const w of loaded.data?.workflows ?? []) groups.set(w.goal, [...(groups.get(w.goal) ?? []), w]);
    return [...groups];
  }, [loaded.data]);
  const known = [...new Set([...(goals.data?.goals ?? []), ...byGoal.map(([g]) => g)])];
  return (
    <Page
      title="Workflows"
      lead="The paths users actually take to a goal, found from behaviour: how often, how quickly, and where they stumble."
    >
      <p class="muted">
        Paths cover all the project&apos;s history as last mined (the workflows endpoint takes no date range). Goals
        kept: active Job goals, declared goals and every goal asked for here.
      </p>
      <QueryForm
        param="goal"
        formLabel="Goal"
        label="Goal event"
        placeholder="e.g. report_exported"
        suggestions={known}
        submit="Show paths"
      >
        {goal && (
          <button type="button" class="button button--quiet" onClick={() => setGoal('')}>
            All goals
          </button>
        )}
      </QueryForm>
      <WhenLoaded loaded={loaded} what="workflows">
        {() =>
          byGoal.length === 0 && !goal && known.length === 0 ? (
            // What is missing is a goal, not events: a goal is any event name the product already sends.
            <section class="empty" aria-label="No goal yet">
              <h2>No goal yet</h2>
              <div class="empty-body">
                <p>
                  Workflows are the paths users take to a goal: an event that means they got what they came for (
                  <code>report_exported</code>, <code>signup_completed</code>). Any event your product already sends can
                  be one. Name a goal above, declare goals with <code>PUT /v1/settings/goals</code>, or create a Job
                  with a goal; its paths appear within seconds of the next mining.
                </p>
              </div>
            </section>
          ) : byGoal.length === 0 ? (
            <EmptyState
              title={goal ? `No paths to ${goal} yet` : 'No workflows yet'}
              events={[
                { user_id: 'u_42', event: 'page_view', properties: { page: '/reports' } },
                { user_id: 'u_42', event: 'feature_used', properties: { page: '/reports', feature: 'filters' } },
                { user_id: 'u_42', event: 'report_exported', properties: { page: '/reports', success: true } },
              ]}
            >
              <p>
                A workflow is the steps (pages and features) users took before a goal event. Name a goal above (any
                event, e.g. <code>report_exported</code>), declare goals with <code>PUT /v1/settings/goals</code>, or
                create a Job with a goal.
              </p>
            </EmptyState>
          ) : (
            byGoal.map(([g, workflows]) => <GoalPaths key={g} goal={g} workflows={workflows} />)
          )
        }
      </WhenLoaded>
    </Page>
  );
}

const COLUMNS: Column[] = [
  'Path',
  { label: 'Completions', num: true },
  { label: <Explain term="frequency">Frequency</Explain>, num: true },
  { label: <Explain term="user_share">Users</Explain>, num: true },
  { label: <Explain term="completion_rate">Completion rate</Explain>, num: true },
  { label: <Explain term="avg_time">Avg time</Explain>, num: true },
  { label: <Explain term="efficiency_score">Efficiency</Explain>, num: true },
  ACTIONS,
];

/** One goal: its paths as a diagram, every path's numbers in a table, and a path's step friction on demand. */
function GoalPaths({ goal, workflows }: { goal: string; workflows: Workflow[] }) {
  const [open, setOpen] = useState<Workflow>();
  return (
    <Section
      class="card"
      title={
        <>
          Paths to <code>{goal}</code>
        </>
      }
    >
      <PathsDiagram goal={goal} workflows={workflows} />
      <DataTable label={`Paths to ${goal}`} columns={COLUMNS}>
        {workflows.map((w) => (
          <tr key={w.workflow_id}>
            <th scope="row" class="path-steps">
              {isFolded(w.path) ? (
                <span class="muted">Other (paths taken fewer than 2 times)</span>
              ) : w.path.length === 0 ? (
                <span class="muted">{START}</span>
              ) : (
                w.path.join(' → ')
              )}
            </th>
            <td class="num">{count(w.occurrences)}</td>
            <td class="num">{percent(w.frequency)}</td>
            <td class="num">
              {count(w.users)} ({percent(w.user_share)})
            </td>
            <td class="num">{percent(w.completion_rate)}</td>
            <td class="num">{duration(w.avg_time)}</td>
            <td class="num">
              {num(w.efficiency_score)} <span class="muted">· {efficiencyWords(w.efficiency_score)}</span>
            </td>
            <td>
              {!isFolded(w.path) && (
                <button
                  type="button"
                  class="button button--quiet"
                  aria-expanded={open?.workflow_id === w.workflow_id}
                  onClick={() => setOpen(open?.workflow_id === w.workflow_id ? undefined : w)}
                >
                  Step friction
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {open && (
        <div class="step-friction">
          <h3>Step friction of {open.path.join(' → ') || START}</h3>
          <StepFriction id={open.workflow_id} />
        </div>
      )}
    </Section>
  );
}

function StepFriction({ id }: { id: string }) {
  const efficiency = useApi<Efficiency>(`/analytics/workflows/${encodeURIComponent(id)}/efficiency`);
  const chart = useMemo<ChartConfiguration<'bar'> | undefined>(
    () =>
      efficiency.data && {
        type: 'bar',
        data: {
          labels: efficiency.data.friction_points.map((p) => p.step),
          datasets: [
            {
              label: 'Friction Index',
              data: efficiency.data.friction_points.map((p) => p.friction_index),
              backgroundColor: '#b45309',
            },
          ],
        },
        options: {
          indexAxis: 'y',
          scales: {
            x: { min: 0, max: 1, title: { display: true, text: 'Friction Index (0 none – 1 worst)' } },
            y: { title: { display: true, text: 'Step of the path' } },
          },
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: (item) => `Friction Index: ${num(item.parsed.x ?? 0)}` } },
          },
        },
      },
    [efficiency.data],
  );
  return (
    <WhenLoaded loaded={efficiency} what="step friction">
      {(data) =>
        chart && (
          <div class="efficiency">
            <p>
              Shortest successful path: {data.optimal_steps} {data.optimal_steps === 1 ? 'step' : 'steps'}; users take{' '}
              {num(data.actual_avg_steps)} on average (<Explain term="efficiency_score">efficiency</Explain>{' '}
              {num(data.efficiency_score)}: {efficiencyWords(data.efficiency_score)}).
            </p>
            <ChartView size="medium" config={chart} label={`Friction Index per step of the path; listed below.`} />
            <ul>
              {data.friction_points.map((p, i) => (
                <li key={`${i}-${p.step}`}>
                  <strong>{p.step}</strong>: <Explain term="friction_index">FI</Explain> {num(p.friction_index)}
                  {p.common_issues.length > 0 && <> — {p.common_issues.join(', ')}</>}
                </li>
              ))}
            </ul>
          </div>
        )
      }
    </WhenLoaded>
  );
}
