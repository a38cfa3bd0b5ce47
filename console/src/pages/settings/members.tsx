import { useState } from 'preact/hooks';
import { useAction, useSubmit } from '../../actions';
import { api } from '../../api';
import { Field, SubmitButton, choices } from '../../components/form';
import { ACTIONS, DataTable } from '../../components/table';
import { Badge, DeleteButton, ErrorNotice, SecretOnce, Section, WhenLoaded } from '../../components/ui';
import { when } from '../../format';
import { useApi } from '../../hooks';
import { useSignedIn } from '../../session';
import { SettingsPage } from './tabs';
import { text } from '../../forms';

interface Member {
  id: string;
  email: string;
  role: 'owner' | 'member';
  has_password: boolean;
  created_at: string;
}

export function Members() {
  const session = useSignedIn();
  const isOwner = session.user.role === 'owner';
  const list = useApi<{ members: Member[] }>('/console/members');
  const [link, setLink] = useState<{ email: string; url: string }>();
  const linking = useAction();
  const newLink = (m: Member) =>
    linking.run(async () => {
      const made = await api<{ sign_in_link: string }>('POST', `/console/members/${m.id}/sign-in-link`);
      setLink({ email: m.email, url: made.sign_in_link });
    });
  return (
    <SettingsPage>
      <Section title="Members">
        <p class="muted">
          Everyone here can use the whole console (it acts as an admin key of the project). Owners also invite and
          remove people. A person signs in with a one-time link first, then sets a password.
        </p>
        {isOwner && (
          <InviteForm
            onInvited={(email, url) => {
              setLink({ email, url });
              list.reload();
            }}
          />
        )}
        {link && (
          <SecretOnce
            label={`Sign-in link for ${link.email}`}
            value={link.url}
            note="Send it to them over a channel you trust. It works once, within 24 hours."
            onDone={() => setLink(undefined)}
          />
        )}
        <ErrorNotice error={linking.error} />
        <WhenLoaded loaded={list} what="members">
          {(data) => (
            <DataTable label="Members" columns={['Email', 'Role', 'Password', 'Since', isOwner && ACTIONS]}>
              {data.members.map((m) => (
                <tr key={m.id}>
                  <th scope="row">
                    {m.email} {m.id === session.user.id && <span class="muted">(you)</span>}
                  </th>
                  <td>
                    <Badge tone={m.role === 'owner' ? 'info' : 'muted'}>{m.role}</Badge>
                  </td>
                  <td>{m.has_password ? 'set' : 'not yet'}</td>
                  <td>{when(m.created_at)}</td>
                  {isOwner && (
                    <td class="row">
                      <button
                        type="button"
                        class="button button--quiet"
                        aria-label={`New sign-in link for ${m.email}`}
                        onClick={() => void newLink(m)}
                      >
                        New sign-in link
                      </button>
                      <DeleteButton
                        label="Remove"
                        ariaLabel={`Remove ${m.email}`}
                        title={`Remove ${m.email}?`}
                        body={<p>They are signed out everywhere and can no longer sign in.</p>}
                        confirmLabel="Remove"
                        path={`/console/members/${m.id}`}
                        then={list.reload}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </DataTable>
          )}
        </WhenLoaded>
      </Section>
    </SettingsPage>
  );
}

function InviteForm({ onInvited }: { onInvited: (email: string, link: string) => void }) {
  const { busy, error, onSubmit } = useSubmit(async (data, form) => {
    const email = text(data, 'email');
    const made = await api<{ sign_in_link: string }>('POST', '/console/members', { email, role: text(data, 'role') });
    form.reset();
    onInvited(email, made.sign_in_link);
  });
  return (
    <form class="card inline-form" aria-label="Invite a person" onSubmit={onSubmit}>
      <div class="field">
        <Field label="Email">
          {(control) => <input {...control} name="email" type="email" required maxLength={254} />}
        </Field>
      </div>
      <div class="field">
        <Field label="Role">
          {(control) => (
            <select {...control} name="role">
              {choices(['member', 'owner'])}
            </select>
          )}
        </Field>
      </div>
      <SubmitButton busy={busy} label="Invite" working="Inviting…" />
      <ErrorNotice error={error} />
    </form>
  );
}
