import { useState } from 'preact/hooks';
import { useAction, useSubmit } from '../../actions';
import { ApiFailure, api } from '../../api';
import { Field, SubmitButton, choices } from '../../components/form';
import { ActionError, RoleNotice } from '../../components/role-notice';
import { ACTIONS, DataTable } from '../../components/table';
import { Badge, ConfirmButton, DeleteButton, Facts, SecretOnce, Section, WhenLoaded } from '../../components/ui';
import { when, words } from '../../format';
import { useApi } from '../../hooks';
import { ADMIN_ROLES, MEMBER_ROLES, ROLES, ROLE_MEANING, type Role, rolesInWords } from '../../roles';
import { type Session, managesMembers, useSession, useSignedIn } from '../../session';
import { SettingsPage } from './tabs';
import { text } from '../../forms';

interface Member {
  id: string;
  email: string;
  role: Role;
  has_password: boolean;
  created_at: string;
}

export function Members() {
  const session = useSignedIn();
  const isOwner = managesMembers(session);
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
          Each person has a role, which decides what they may do here and through the API with their session. A person
          signs in with a one-time link first, then sets a password.
        </p>
        <Facts items={ROLES.map((role) => [words(role), ROLE_MEANING[role]] as const)} />
        {!isOwner && <RoleNotice what="invite or remove people or change their roles" allowed={MEMBER_ROLES} />}
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
        <ActionError error={linking.error} what="issue sign-in links" />
        <WhenLoaded loaded={list} what="members">
          {(data) => (
            <DataTable label="Members" columns={['Email', 'Role', 'Password', 'Since', isOwner && ACTIONS]}>
              {data.members.map((m) => (
                <tr key={m.id}>
                  <th scope="row">
                    {m.email} {m.id === session.user.id && <span class="muted">(you)</span>}
                  </th>
                  <td>
                    {isOwner ? (
                      <RoleChange
                        key={`${m.id} ${m.role}`}
                        member={m}
                        self={m.id === session.user.id}
                        then={list.reload}
                      />
                    ) : (
                      <Badge tone={ADMIN_ROLES.includes(m.role) ? 'info' : 'muted'}>{m.role}</Badge>
                    )}
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

/**
 * An owner changes a member's role: pick it, then confirm. Taking `admin` from someone revokes the
 * keys they made; the last owner cannot give up the role (409 last_owner), said in words.
 */
function RoleChange({ member, self, then }: { member: Member; self: boolean; then: () => void }) {
  const { signedIn } = useSession();
  const [role, setRole] = useState<Role>(member.role);
  const losesAdmin = ADMIN_ROLES.includes(member.role) && !ADMIN_ROLES.includes(role);
  const change = async () => {
    try {
      await api('PATCH', `/console/members/${member.id}`, { role });
    } catch (err) {
      if (err instanceof ApiFailure && err.details.reason === 'last_owner') {
        throw new Error(
          `${member.email} is the project's only owner, and a project keeps one: make another person an owner first.`,
        );
      }
      throw err;
    }
    // One's own role changed: what the console shows follows it.
    if (self) signedIn(await api<Session>('GET', '/console/session'));
    then();
  };
  return (
    <div class="row">
      <select
        aria-label={`Role of ${member.email}`}
        value={role}
        onChange={(e) => setRole(e.currentTarget.value as Role)}
      >
        {choices(ROLES)}
      </select>
      {role !== member.role && (
        <ConfirmButton
          label="Change role"
          ariaLabel={`Change the role of ${member.email}`}
          title={`Make ${self ? 'yourself' : member.email} ${rolesInWords([role])}?`}
          body={
            <>
              <p>
                {words(role)}: {ROLE_MEANING[role]}.
              </p>
              {losesAdmin && (
                <p>The API keys {self ? 'you' : 'they'} made, and the keys those keys made, are revoked.</p>
              )}
              {self && role !== 'owner' && <p>You will no longer manage the members: only an owner can undo this.</p>}
            </>
          }
          confirmLabel="Change role"
          onConfirm={change}
        />
      )}
    </div>
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
              {choices(ROLES, { selected: 'member' })}
            </select>
          )}
        </Field>
      </div>
      <SubmitButton busy={busy} label="Invite" working="Inviting…" />
      <ActionError error={error} what="invite people" />
    </form>
  );
}
