import { useMemo, useState } from 'preact/hooks';
import { useSubmit } from '../actions';
import { api } from '../api';
import { dayLine } from '../charts';
import { ChartView } from '../components/chart';
import { Field, FormActions, choices } from '../components/form';
import { EmptyState } from '../components/send-events';
import { DataTable } from '../components/table';
import { Badge, ErrorNotice, Facts, Page, Section, ToggleButton, WhenLoaded } from '../components/ui';
import { count, duration, num, percent, when, words } from '../format';
import { useApi } from '../hooks';
import { COHORTS_FIRST_RECOMPUTE_SECONDS, MIN_COHORT_USERS } from '../rules';
import { useSignedIn, writesDefinitions } from '../session';

interface Behavioural {
  id: string;
  name: string;
  size: number;
  percentage: number;
  characteristics: Record<string, number>;
  churn_risk: string;
  expansion_opportunity: string;
}

interface BehaviouralList {
  cohorts: Behavioural[];
  computed_at: string | null;
  users_clustered: number;
  users_excluded: number;
}

/** What the last computation found instead of cohorts: too few users, or no clear groups among them. */
function whyNoCohorts(data: BehaviouralList): string {
  const users = data.users_clustered + data.users_excluded;
  return users < MIN_COHORT_USERS
    ? `No behavioural cohorts yet: ${count(users)} of the ${MIN_COHORT_USERS} users they need`
    : `No behavioural cohorts yet: ${count(users)} users, but no groups distinct enough`;
}

interface Custom {
  id: string;
  name: string;
  criteria: Record<string, Record<string, number | [number, number]>>;
  size: number;
  created_at: string;
}

const METRICS = [
  'features_used',
  'days_active',
  'sessions',
  'events',
  'friction_index',
  'avg_session_length',
  'last_seen_days',
];
const OPERATORS: Record<string, string> = {
  gte: '≥',
  gt: '>',
  lte: '≤',
  lt: '<',
  eq: '=',
  ne: '≠',
  between: 'between',
};
const RISK_TONE: Record<string, 'good' | 'warn' | 'bad' | 'muted'> = {
  very_low: 'good',
  low: 'good',
  medium: 'warn',
  high: 'bad',
  very_high: 'bad',
};

export function Cohorts() {
  const behavioural = useApi<BehaviouralList>('/analytics/cohorts');
  const custom = useApi<{ cohorts: Custom[]; total: number }>('/cohorts?type=custom&per_page=100');
  // Viewers read cohorts only: the server refuses them the changes (definitions:write).
  const writes = writesDefinitions(useSignedIn());
  return (
    <Page title="Cohorts" lead="Users grouped by how they behave: found by clustering, or defined by you.">
      <Section title="Behavioural cohorts">
        <WhenLoaded loaded={behavioural} what="behavioural cohorts">
          {(data) =>
            data.cohorts.length === 0 ? (
              <EmptyState
                title={data.computed_at === null ? 'No behavioural cohorts yet' : whyNoCohorts(data)}
                events={[
                  { user_id: 'u_42', event: 'page_view', properties: { page: '/dashboard' } },
                  { user_id: 'u_42', event: 'feature_used', properties: { page: '/dashboard', feature: 'widgets' } },
                ]}
              >
                <p>
                  Cohorts appear after {MIN_COHORT_USERS} users with a session: the <code>behavioural-cohorts</code>{' '}
                  worker clusters users into groups of at least 5 that behave alike.{' '}
                  {data.computed_at === null
                    ? 'It has not looked at this project yet.'
                    : `It last looked ${when(data.computed_at)}, and looks again within ${COHORTS_FIRST_RECOMPUTE_SECONDS} s of new data while the project is young.`}
                </p>
              </EmptyState>
            ) : (
              <>
                <p class="muted">
                  {count(data.users_clustered)} users clustered, last computed {when(data.computed_at)}.
                </p>
                <p class="muted">
                  A cohort&apos;s name says how it differs from this project&apos;s other users: &ldquo;Struggling
                  users&rdquo; have more friction than the rest, however little that is. <strong>Disengagement</strong>{' '}
                  grades its average user on inactivity (50 %), friction (30 %) and few features used (20 %);{' '}
                  <strong>Readiness to expand</strong> on activity, efficiency and breadth, held back by friction. Both
                  are rules of thumb from behaviour, not predictions of churn or revenue.
                </p>
                <ul class="cards">
                  {data.cohorts.map((c) => (
                    <BehaviouralCard key={c.id} cohort={c} />
                  ))}
                </ul>
              </>
            )
          }
        </WhenLoaded>
      </Section>
      <Section title="Custom cohorts">
        <p class="muted">
          Sizes are current: membership is worked out when asked, so no history of a custom cohort&apos;s size is kept.
        </p>
        <WhenLoaded loaded={custom} what="custom cohorts">
          {(data) =>
            data.cohorts.length === 0 ? (
              <p>No custom cohorts yet.</p>
            ) : (
              <DataTable
                label="Custom cohorts"
                columns={['Name', 'Criteria', { label: 'Size now', num: true }, 'Created']}
              >
                {data.cohorts.map((c) => (
                  <tr key={c.id}>
                    <th scope="row">{c.name}</th>
                    <td>{describeCriteria(c.criteria)}</td>
                    <td class="num">{count(c.size)}</td>
                    <td>{when(c.created_at)}</td>
                  </tr>
                ))}
              </DataTable>
            )
          }
        </WhenLoaded>
        {writes && <NewCohort onCreated={custom.reload} />}
      </Section>
    </Page>
  );
}

/** Rates as percentages, session lengths as durations (seconds), the rest as numbers. */
const characteristic = (key: string, value: number) =>
  key.endsWith('_rate') ? percent(value) : key.includes('session_length') ? duration(value) : num(value);

function describeCriteria(criteria: Custom['criteria']): string {
  return Object.entries(criteria)
    .flatMap(([metric, ops]) =>
      Object.entries(ops).map(([op, v]) =>
        op === 'between' && Array.isArray(v)
          ? `${words(metric)} ${v[0]}–${v[1]}`
          : `${words(metric)} ${OPERATORS[op] ?? op} ${String(v)}`,
      ),
    )
    .join(' and ');
}

function BehaviouralCard({ cohort: c }: { cohort: Behavioural }) {
  const [open, setOpen] = useState(false);
  return (
    <li class="card">
      <h3>{c.name}</h3>
      <p>
        <strong>{count(c.size)}</strong> users ({percent(c.percentage)} of all)
      </p>
      <p>
        Disengagement <Badge tone={RISK_TONE[c.churn_risk] ?? 'muted'}>{words(c.churn_risk)}</Badge> · Readiness to
        expand <Badge tone="info">{words(c.expansion_opportunity)}</Badge>
      </p>
      <Facts items={Object.entries(c.characteristics).map(([k, v]) => [words(k), characteristic(k, v)])} />
      <ToggleButton open={open} set={setOpen} show="Size over time" hide="Hide size over time" />
      {open && <SizeOverTime id={c.id} />}
    </li>
  );
}

function SizeOverTime({ id }: { id: string }) {
  const cohort = useApi<{ size_over_time: { date: string; size: number }[] }>(
    `/analytics/cohorts/${encodeURIComponent(id)}`,
  );
  const sizes = cohort.data?.size_over_time ?? [];
  const chart = useMemo(
    () =>
      dayLine({
        days: sizes.map((s) => s.date),
        values: sizes.map((s) => s.size),
        what: 'Users',
        format: count,
        color: '#1d4ed8',
      }),
    [cohort.data],
  );
  return (
    <WhenLoaded loaded={cohort} what="sizes">
      {() =>
        sizes.length < 2 ? (
          <p class="muted">
            Measured on {sizes.length === 1 ? 'one day' : 'no day'} so far: there is no history to draw yet.
          </p>
        ) : (
          <ChartView
            size="medium"
            config={chart}
            label={`Cohort size per day, ${sizes.length} days from ${sizes[0]!.date} to ${sizes.at(-1)!.date}`}
          />
        )
      }
    </WhenLoaded>
  );
}

interface Condition {
  metric: string;
  op: string;
  value: string;
  high: string;
}

function NewCohort({ onCreated }: { onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [conditions, setConditions] = useState<Condition[]>([
    { metric: 'features_used', op: 'gte', value: '5', high: '' },
  ]);
  const update = (i: number, change: Partial<Condition>) =>
    setConditions(conditions.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const { busy, error, onSubmit } = useSubmit(async () => {
    const criteria: Custom['criteria'] = {};
    for (const c of conditions) {
      (criteria[c.metric] ??= {})[c.op] = c.op === 'between' ? [Number(c.value), Number(c.high)] : Number(c.value);
    }
    await api('POST', '/cohorts', { name, criteria });
    setOpen(false);
    setName('');
    onCreated();
  });
  if (!open) {
    return (
      <button type="button" class="button button--primary" onClick={() => setOpen(true)}>
        New custom cohort
      </button>
    );
  }
  return (
    <form class="card stack" aria-label="New custom cohort" onSubmit={onSubmit}>
      <h3>New custom cohort</h3>
      <Field label="Name">
        {(control) => (
          <input {...control} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <fieldset>
        <legend>Users who match every condition</legend>
        {conditions.map((c, i) => (
          <ConditionRow
            key={i}
            n={i + 1}
            condition={c}
            update={(change) => update(i, change)}
            remove={conditions.length > 1 ? () => setConditions(conditions.filter((_, j) => j !== i)) : undefined}
          />
        ))}
        <button
          type="button"
          class="button button--quiet"
          onClick={() => setConditions([...conditions, { metric: 'days_active', op: 'gte', value: '1', high: '' }])}
        >
          Add condition
        </button>
      </fieldset>
      <ErrorNotice error={error} />
      <FormActions busy={busy} label="Create cohort" working="Creating…" onCancel={() => setOpen(false)} />
    </form>
  );
}

/** Condition `n` of a new cohort: metric, comparison, value (and the upper value of a range). */
function ConditionRow(props: {
  n: number;
  condition: Condition;
  update: (change: Partial<Condition>) => void;
  remove?: () => void;
}) {
  const { n, condition: c, update } = props;
  const bound = (key: 'value' | 'high', label: string) => (
    <Field hiddenLabel label={`${label} of condition ${n}`}>
      {(control) => (
        <input
          {...control}
          type="number"
          step="any"
          required
          value={c[key]}
          onInput={(e) => update({ [key]: e.currentTarget.value })}
        />
      )}
    </Field>
  );
  return (
    <div class="condition">
      <Field hiddenLabel label={`Metric of condition ${n}`}>
        {(control) => (
          <select {...control} value={c.metric} onChange={(e) => update({ metric: e.currentTarget.value })}>
            {choices(METRICS)}
          </select>
        )}
      </Field>
      <Field hiddenLabel label={`Comparison of condition ${n}`}>
        {(control) => (
          <select {...control} value={c.op} onChange={(e) => update({ op: e.currentTarget.value })}>
            {choices(Object.keys(OPERATORS), { label: (op) => OPERATORS[op] ?? op })}
          </select>
        )}
      </Field>
      {bound('value', 'Value')}
      {c.op === 'between' && bound('high', 'Upper value')}
      {props.remove && (
        <button type="button" class="button button--quiet" aria-label={`Remove condition ${n}`} onClick={props.remove}>
          Remove
        </button>
      )}
    </div>
  );
}
