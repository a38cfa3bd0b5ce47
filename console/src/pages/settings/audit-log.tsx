import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGETS,
  type AuditFilters,
  type AuditPage,
  NO_FILTERS,
  actionWords,
  auditQuery,
  detailsText,
  filtered,
  filtersOf,
  pageOf,
  targetOf,
  targetWords,
} from '../../audit';
import { Field } from '../../components/form';
import { ActionError, RoleNotice } from '../../components/role-notice';
import { DataTable } from '../../components/table';
import { Section, WhenLoaded } from '../../components/ui';
import { count, when } from '../../format';
import { text } from '../../forms';
import { RANGES, useApi } from '../../hooks';
import { ADMIN_ROLES } from '../../roles';
import { isAdmin, useSignedIn } from '../../session';
import { SettingsPage } from './tabs';

const PER_PAGE = 50;
const PATH = '/console/settings/audit-log';

/** Settings → Audit log (owners and admins): who changed what, when and from where, newest first. */
export function AuditLog() {
  const session = useSignedIn();
  const location = useLocation();
  const { filters, page } = filtersOf(location.query);
  const allowed = isAdmin(session);
  const log = useApi<AuditPage>(allowed ? `/audit-log?${auditQuery(filters, page, PER_PAGE).toString()}` : null);
  const go = (next: AuditFilters, nextPage = 1) => {
    const query = auditQuery(next, nextPage).toString();
    location.route(query ? `${PATH}?${query}` : PATH);
  };
  return (
    <SettingsPage>
      <Section title="Audit log">
        {!allowed ? (
          <RoleNotice what="read the audit log" allowed={ADMIN_ROLES} />
        ) : (
          <>
            <p class="muted">
              Every administrative change of this project, newest first: who made it (a console member or an API key),
              when, and from which client address.
            </p>
            <Filters key={location.url} filters={filters} onApply={(next) => go(next)} />
            <WhenLoaded loaded={{ ...log, error: undefined }} what="the audit log">
              {(data) =>
                data.entries.length === 0 && !filtered(filters) && page === 1 ? (
                  <NothingYet />
                ) : (
                  <Entries
                    data={data}
                    filtered={filtered(filters)}
                    onPage={(n) => go(filters, n)}
                    onClear={() => go(NO_FILTERS)}
                  />
                )
              }
            </WhenLoaded>
            <ActionError error={log.error} what="read the audit log" />
          </>
        )}
      </Section>
    </SettingsPage>
  );
}

function Filters({ filters, onApply }: { filters: AuditFilters; onApply: (next: AuditFilters) => void }) {
  const [range, setRange] = useState(filters.range);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <form
      class="range"
      aria-label="Filter the audit log"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        onApply({
          actor: text(data, 'actor'),
          action: text(data, 'action'),
          range,
          start: range === 'custom' ? text(data, 'start') : '',
          end: range === 'custom' ? text(data, 'end') : '',
        });
      }}
    >
      <div class="field">
        <Field label="Who">
          {(control) => (
            <input
              {...control}
              name="actor"
              maxLength={254}
              placeholder="e-mail, member id or key id"
              defaultValue={filters.actor}
            />
          )}
        </Field>
      </div>
      <div class="field">
        <Field label="What">
          {(control) => (
            <select {...control} name="action">
              <option value="" selected={!filters.action}>
                Every change
              </option>
              {AUDIT_TARGETS.map((target) => (
                <optgroup key={target} label={targetWords(target)}>
                  <option value={target} selected={filters.action === target}>
                    Every {targetWords(target).toLowerCase()} change
                  </option>
                  {AUDIT_ACTIONS.filter((a) => targetOf(a) === target).map((a) => (
                    <option key={a} value={a} selected={filters.action === a}>
                      {actionWords(a)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div class="field">
        <Field label="When">
          {(control) => (
            <select {...control} value={range} onChange={(e) => setRange(e.currentTarget.value)}>
              <option value="">All time</option>
              {RANGES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {range === 'custom' && (
        <>
          <div class="field">
            <Field label="From">
              {(control) => (
                <input {...control} name="start" type="date" required max={today} defaultValue={filters.start} />
              )}
            </Field>
          </div>
          <div class="field">
            <Field label="To">
              {(control) => (
                <input {...control} name="end" type="date" required max={today} defaultValue={filters.end || today} />
              )}
            </Field>
          </div>
        </>
      )}
      <button type="submit" class="button">
        Apply
      </button>
    </form>
  );
}

function Entries(props: { data: AuditPage; filtered: boolean; onPage: (n: number) => void; onClear: () => void }) {
  const { data, onPage } = props;
  const { page, hasNext } = pageOf(data);
  if (data.entries.length === 0) {
    return (
      <p class="notice" role="status">
        {props.filtered ? 'No change matches these filters.' : 'No entries on this page: the log is shorter.'}{' '}
        <button type="button" class="link" onClick={props.onClear}>
          Show the newest changes
        </button>
      </p>
    );
  }
  const first = (page - 1) * data.per_page + 1;
  return (
    <>
      <DataTable label="Audit log" columns={['When', 'Who', 'What', 'Target', 'Details', 'From']}>
        {data.entries.map((e) => (
          <tr key={e.id}>
            <td>
              <time dateTime={e.at}>{when(e.at)}</time>
            </td>
            <th scope="row">
              {e.actor.type === 'member' ? (
                (e.actor.email ?? <span class="mono">{e.actor.id}</span>)
              ) : (
                <>
                  API key <span class="mono muted id">{e.actor.id}</span>
                </>
              )}
            </th>
            <td>{actionWords(e.action)}</td>
            <td>
              {targetWords(e.target.type)} {e.target.id && <span class="mono muted id">{e.target.id}</span>}
            </td>
            <td class="wrap">{detailsText(e.details) || <span class="muted">–</span>}</td>
            <td class="mono">{e.address ?? '–'}</td>
          </tr>
        ))}
      </DataTable>
      <nav class="row" aria-label="Pages of the audit log">
        <button type="button" class="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Newer
        </button>
        <span class="muted">
          {count(first)}–{count(first + data.entries.length - 1)} of {count(data.total)}
        </span>
        <button type="button" class="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
          Older
        </button>
      </nav>
    </>
  );
}

/** The empty log says what it will hold. */
function NothingYet() {
  return (
    <section class="empty" aria-label="Nothing recorded yet">
      <h2>Nothing recorded yet</h2>
      <p>Each of these changes is recorded here, with who made it, when and from which address:</p>
      <ul>
        <li>API keys created or revoked;</li>
        <li>people invited or removed, their roles changed, sign-in links issued;</li>
        <li>webhooks, the integration endpoint and scheduled reports created, changed or deleted;</li>
        <li>warehouse exports queued and raw events downloaded;</li>
        <li>settings changed and users erased.</li>
      </ul>
      <p class="muted">
        Reading the analytics is not recorded, nor what an operator does on the server (<code>npm run key:create</code>,{' '}
        <code>user:invite</code>).
      </p>
    </section>
  );
}
