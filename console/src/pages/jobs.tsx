import { useState } from 'preact/hooks';
import { useAction, useSubmit } from '../actions';
import { api } from '../api';
import { Explain } from '../components/explain';
import { Field, FormActions, choices } from '../components/form';
import { Badge, DeleteButton, ErrorNotice, Facts, Page, ToggleButton, WhenLoaded } from '../components/ui';
import { count, duration, num, percent, when, words } from '../format';
import { useApi } from '../hooks';
import { text } from '../forms';
import { useSignedIn, writesDefinitions } from '../session';

interface JobListItem {
  id: string;
  name: string;
  status: string;
  priority: string | null;
  created_at: string;
  metrics: { completion_rate: number; users_targeted: number; users_completed: number };
}

interface Job {
  id: string;
  name: string;
  description: string | null;
  goal: string | null;
  status: string;
  priority: string | null;
  target_audience: { type: string; criteria?: string } | null;
  automation: { level: string; requires_confirmation: boolean } | null;
}

interface JobAnalytics {
  metrics: {
    completion_rate: number;
    avg_time_to_completion: number;
    intervention_acceptance_rate: number;
    users_targeted: number;
    users_completed: number;
  };
  paths_to_success: { path: string[]; frequency: number; avg_time: number }[];
  drop_off_points: { step: string; drop_off_rate: number; friction_index: number }[];
}

const STATUS_TONE: Record<string, 'good' | 'warn' | 'info' | 'muted'> = {
  active: 'good',
  paused: 'warn',
  draft: 'muted',
  completed: 'info',
  archived: 'muted',
};
const PRIORITIES = ['low', 'medium', 'high', 'critical'];
const LEVELS = ['manual', 'subtle_hints', 'guided_shortcuts', 'automated'];

export function Jobs() {
  const list = useApi<{ jobs: JobListItem[]; total: number }>('/jobs?per_page=100');
  const [editing, setEditing] = useState<string>();
  // Viewers read jobs only: the server refuses them the changes (definitions:write).
  const writes = writesDefinitions(useSignedIn());
  return (
    <Page
      title="Jobs"
      lead="Managed goals: who should reach them, how much help they get, and how many get there."
      actions={
        writes && (
          <button type="button" class="button button--primary" onClick={() => setEditing('new')}>
            New job
          </button>
        )
      }
    >
      {editing === 'new' && (
        <JobForm
          onSaved={() => {
            setEditing(undefined);
            list.reload();
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      <WhenLoaded loaded={list} what="jobs">
        {(data) =>
          data.jobs.length === 0 ? (
            editing !== 'new' && (
              <section class="empty">
                <h2>No jobs yet</h2>
                <p>
                  A job is a goal you want users to reach, e.g. <em>Complete profile</em> with goal event{' '}
                  <code>profile_completed</code>.{' '}
                  {writes ? (
                    <>
                      Create one with <strong>New job</strong>; once it is active, users reaching its goal count as
                      completions.
                    </>
                  ) : (
                    'Once one is active, users reaching its goal count as completions.'
                  )}
                </p>
              </section>
            )
          ) : (
            <ul class="cards jobs">
              {data.jobs.map((j) =>
                editing === j.id ? (
                  <li key={j.id} class="card">
                    <EditJob
                      id={j.id}
                      onSaved={() => {
                        setEditing(undefined);
                        list.reload();
                      }}
                      onCancel={() => setEditing(undefined)}
                    />
                  </li>
                ) : (
                  <JobCard
                    key={j.id}
                    job={j}
                    onEdit={writes ? () => setEditing(j.id) : undefined}
                    onChanged={list.reload}
                  />
                ),
              )}
            </ul>
          )
        }
      </WhenLoaded>
    </Page>
  );
}

/** A job; without `onEdit` (a viewer) only its metrics, no activate, pause, edit or delete. */
function JobCard({ job: j, onEdit, onChanged }: { job: JobListItem; onEdit?: () => void; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const change = useAction();
  const setStatus = (status: string) =>
    change.run(async () => {
      await api('PATCH', `/jobs/${j.id}`, { status });
      onChanged();
    });
  return (
    <li class="card">
      <h2 class="card-title">{j.name}</h2>
      <p>
        <Badge tone={STATUS_TONE[j.status] ?? 'muted'}>{words(j.status)}</Badge>{' '}
        {j.priority && <span class="muted">{words(j.priority)} priority · </span>}
        <span class="muted">created {when(j.created_at)}</span>
      </p>
      <Facts
        kind="signals"
        items={[
          [<Explain term="completion_rate_job">Completion</Explain>, percent(j.metrics.completion_rate)],
          ['Targeted', count(j.metrics.users_targeted)],
          ['Completed', count(j.metrics.users_completed)],
        ]}
      />
      <ErrorNotice error={change.error} />
      <div class="row">
        {onEdit && j.status !== 'active' && (
          <button
            type="button"
            class="button"
            aria-label={`Activate ${j.name}`}
            onClick={() => void setStatus('active')}
          >
            Activate
          </button>
        )}
        {onEdit && j.status === 'active' && (
          <button type="button" class="button" aria-label={`Pause ${j.name}`} onClick={() => void setStatus('paused')}>
            Pause
          </button>
        )}
        {onEdit && (
          <button type="button" class="button" aria-label={`Edit ${j.name}`} onClick={onEdit}>
            Edit
          </button>
        )}
        <ToggleButton open={open} set={setOpen} show="Metrics" hide="Hide metrics" />
        {onEdit && (
          <DeleteButton
            label="Delete"
            ariaLabel={`Delete ${j.name}`}
            title={`Delete the job “${j.name}”?`}
            body={<p>Its metrics and completions go with it. This cannot be undone.</p>}
            confirmLabel="Delete job"
            path={`/jobs/${j.id}`}
            then={onChanged}
          />
        )}
      </div>
      {open && <JobMetrics id={j.id} />}
    </li>
  );
}

function JobMetrics({ id }: { id: string }) {
  const metrics = useApi<JobAnalytics>(`/analytics/jobs/${id}`);
  return (
    <WhenLoaded loaded={metrics} what="job metrics">
      {(data) => (
        <div class="job-metrics">
          <Facts
            items={[
              ['Average time to completion', duration(data.metrics.avg_time_to_completion)],
              ['Interventions accepted', percent(data.metrics.intervention_acceptance_rate)],
            ]}
          />
          <h3>Paths to success</h3>
          {data.paths_to_success.length === 0 ? (
            <p class="muted">No completions yet.</p>
          ) : (
            <ol>
              {data.paths_to_success.map((p, i) => (
                <li key={i}>
                  {p.path.join(' → ')} — {percent(p.frequency)}, {duration(p.avg_time)}
                </li>
              ))}
            </ol>
          )}
          <h3>Where targeted users stop</h3>
          {data.drop_off_points.length === 0 ? (
            <p class="muted">No drop-off measured yet.</p>
          ) : (
            <ul>
              {data.drop_off_points.map((d) => (
                <li key={d.step}>
                  {d.step}: {percent(d.drop_off_rate)} stop here (FI {num(d.friction_index)})
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </WhenLoaded>
  );
}

function EditJob({ id, onSaved, onCancel }: { id: string; onSaved: () => void; onCancel: () => void }) {
  const job = useApi<Job>(`/jobs/${id}`);
  return (
    <WhenLoaded loaded={job} what="the job">
      {(data) => <JobForm job={data} onSaved={onSaved} onCancel={onCancel} />}
    </WhenLoaded>
  );
}

function JobForm({ job, onSaved, onCancel }: { job?: Job; onSaved: () => void; onCancel: () => void }) {
  const [audience, setAudience] = useState(job?.target_audience?.type ?? 'all');
  const { busy, error, onSubmit } = useSubmit(async (data) => {
    const body: Record<string, unknown> = {
      name: text(data, 'name'),
      target_audience: audience === 'segment' ? { type: 'segment', criteria: text(data, 'criteria') } : { type: 'all' },
      automation: { level: text(data, 'level'), requires_confirmation: data.get('confirm') === 'on' },
    };
    if (text(data, 'description')) body.description = text(data, 'description');
    if (text(data, 'goal')) body.goal = text(data, 'goal');
    if (text(data, 'priority')) body.priority = text(data, 'priority');
    await (job ? api('PATCH', `/jobs/${job.id}`, body) : api('POST', '/jobs', body));
    onSaved();
  });
  return (
    <form class="card stack job-form" aria-label={job ? `Edit ${job.name}` : 'New job'} onSubmit={onSubmit}>
      <h2>{job ? `Edit ${job.name}` : 'New job'}</h2>
      <Field label="Name">
        {(control) => <input {...control} name="name" required maxLength={200} defaultValue={job?.name} />}
      </Field>
      <Field label="Description">
        {(control) => (
          <textarea {...control} name="description" maxLength={5000} rows={2} defaultValue={job?.description ?? ''} />
        )}
      </Field>
      <Field label="Goal event" hint="The event whose occurrence completes the job for a user.">
        {(control) => (
          <input
            {...control}
            name="goal"
            maxLength={255}
            placeholder="profile_completed"
            defaultValue={job?.goal ?? ''}
          />
        )}
      </Field>
      <Field label="Priority">
        {(control) => (
          <select {...control} name="priority">
            {choices(PRIORITIES, { selected: job?.priority ?? 'medium' })}
          </select>
        )}
      </Field>
      <fieldset>
        <legend>Target audience</legend>
        <label class="check">
          <input type="radio" name="audience" checked={audience === 'all'} onChange={() => setAudience('all')} /> Every
          user
        </label>
        <label class="check">
          <input
            type="radio"
            name="audience"
            checked={audience === 'segment'}
            onChange={() => setAudience('segment')}
          />{' '}
          Users matching a condition
        </label>
        {audience === 'segment' && (
          <Field label="Condition on user properties">
            {(control) => (
              <input
                {...control}
                name="criteria"
                class="mono"
                required
                placeholder="plan == 'pro' && mrr >= 100"
                defaultValue={job?.target_audience?.criteria ?? ''}
              />
            )}
          </Field>
        )}
      </fieldset>
      <Field label="Automation">
        {(control) => (
          <select {...control} name="level">
            {choices(LEVELS, { selected: job?.automation?.level ?? 'subtle_hints' })}
          </select>
        )}
      </Field>
      <label class="check">
        <input type="checkbox" name="confirm" defaultChecked={job?.automation?.requires_confirmation ?? true} /> Ask
        users before acting for them
      </label>
      <ErrorNotice error={error} />
      <FormActions busy={busy} label={job ? 'Save job' : 'Create job'} working="Saving…" onCancel={onCancel} />
    </form>
  );
}
