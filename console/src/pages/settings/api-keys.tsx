import { useCreateFlow, useSubmit } from '../../actions';
import { api } from '../../api';
import { CheckGroup, Field, FormActions } from '../../components/form';
import { ActionError, RoleNotice } from '../../components/role-notice';
import { ACTIONS, DataTable } from '../../components/table';
import { Badge, DeleteButton, SecretOnce, Section, WhenLoaded } from '../../components/ui';
import { when } from '../../format';
import { useApi } from '../../hooks';
import { ADMIN_ROLES } from '../../roles';
import { isAdmin, useSignedIn } from '../../session';
import { SettingsPage } from './tabs';
import { someChecked, text } from '../../forms';

interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  created_at: string;
  /** who made it: a console member (email null once they left) or a key; null: an operator's key:create */
  created_by: { type: 'member' | 'api_key'; id: string; email: string | null } | null;
  last_used_at: string | null;
  revoked_at: string | null;
  /** A browser key's allowed origins (the pages it may send from); null: a server key. */
  allowed_origins: string[] | null;
}

const SCOPES = [
  ['events:write', 'Send events and identify users (for your app or the tracker)'],
  ['analytics:read', 'Read analytics and exports'],
  ['admin', 'Everything, settings included'],
] as const;

/** Who made a key, in words. */
function MadeBy({ by }: { by: ApiKey['created_by'] }) {
  if (!by) return <span title="npm run key:create on the server">an operator</span>;
  if (by.type === 'api_key') {
    return (
      <>
        an API key <span class="mono muted id">{by.id}</span>
      </>
    );
  }
  return by.email ? <>{by.email}</> : <span class="muted">a former member</span>;
}

export function ApiKeys() {
  const allowed = isAdmin(useSignedIn());
  const list = useApi<{ api_keys: ApiKey[]; total: number }>(allowed ? '/api-keys?per_page=100' : null);
  const create = useCreateFlow<{ name: string; key: string }>(list.reload);
  return (
    <SettingsPage>
      <Section
        title="API Keys"
        actions={
          allowed &&
          !create.creating &&
          !create.secret && (
            <button type="button" class="button button--primary" onClick={create.start}>
              Create New Key
            </button>
          )
        }
      >
        <p class="muted">
          Keys authenticate calls to the API (<code>Authorization: Bearer …</code>). Keep them out of version control,
          use one per environment and rotate them now and then.
        </p>
        {!allowed && <RoleNotice what="see, create or revoke API keys" allowed={ADMIN_ROLES} />}
        {create.creating && <NewKeyForm onCancel={create.cancel} onCreated={create.created} />}
        {create.secret && (
          <SecretOnce
            label={`Your new key “${create.secret.name || 'unnamed'}”`}
            value={create.secret.key}
            note="Copy it now: it is shown only this once. The service keeps a hash, never the key."
            onDone={create.done}
          />
        )}
        <ActionError error={list.error} what="see, create or revoke API keys" />
        <WhenLoaded loaded={{ ...list, error: undefined }} what="API keys">
          {(data) => (
            <DataTable
              label="API keys"
              columns={['Name', 'Kind', 'Scopes', 'Created', 'Made by', 'Last used', 'Status', ACTIONS]}
            >
              {data.api_keys.map((k) => (
                <tr key={k.id}>
                  <th scope="row">
                    {k.name || <span class="muted">unnamed</span>} <span class="mono muted id">{k.id}</span>
                  </th>
                  <td>
                    {k.allowed_origins ? (
                      <>
                        <Badge tone="muted">Browser</Badge>{' '}
                        <span class="muted" title="The pages this key may send from">
                          {k.allowed_origins.join(', ')}
                        </span>
                      </>
                    ) : (
                      <span title="For servers: any caller holding it is trusted; never put it in a page">Server</span>
                    )}
                  </td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>{when(k.created_at)}</td>
                  <td>
                    <MadeBy by={k.created_by} />
                  </td>
                  <td>{k.last_used_at ? when(k.last_used_at) : 'never'}</td>
                  <td>
                    {k.revoked_at ? (
                      <Badge tone="muted">Revoked {when(k.revoked_at)}</Badge>
                    ) : (
                      <Badge tone="good">Active</Badge>
                    )}
                  </td>
                  <td>
                    {!k.revoked_at && (
                      <DeleteButton
                        label="Revoke"
                        ariaLabel={`Revoke key ${k.name || k.id}`}
                        title={`Revoke the key “${k.name || k.id}”?`}
                        body={<p>Everything that uses it is refused from this moment on. This cannot be undone.</p>}
                        confirmLabel="Revoke key"
                        path={`/api-keys/${k.id}`}
                        then={list.reload}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </WhenLoaded>
      </Section>
    </SettingsPage>
  );
}

function NewKeyForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (key: { name: string; key: string }) => void;
}) {
  const { busy, error, onSubmit } = useSubmit(async (data) => {
    const scopes = someChecked(data, 'scope', 'scope');
    const name = text(data, 'name');
    // One origin per line or comma: a browser key, which pages on those origins may use.
    const origins = text(data, 'origins')
      .split(/[\s,]+/)
      .filter(Boolean);
    const created = await api<{ key: string }>('POST', '/api-keys', {
      name,
      scopes,
      ...(origins.length > 0 ? { allowed_origins: origins } : {}),
    });
    onCreated({ name, key: created.key });
  });
  return (
    <form class="card stack" aria-label="New API key" onSubmit={onSubmit}>
      <Field label="Name">
        {(control) => (
          <input {...control} name="name" maxLength={200} placeholder="e.g. web app production" autoFocus />
        )}
      </Field>
      <CheckGroup legend="Scopes" name="scope" options={SCOPES} checked={(scope) => scope === 'events:write'} />
      <Field label="Allowed origins (a browser key)">
        {(control) => (
          <textarea
            {...control}
            name="origins"
            rows={2}
            placeholder="https://app.example.com — leave empty for a server key"
          />
        )}
      </Field>
      <ActionError error={error} what="create API keys" />
      <FormActions busy={busy} label="Create key" working="Creating…" onCancel={onCancel} />
    </form>
  );
}
