import { api } from '../../api';
import { ConfirmButton, Facts, Section } from '../../components/ui';
import { when } from '../../format';
import { useSession, useSignedIn } from '../../session';
import { PasswordForm } from '../sign-in';
import { SettingsPage } from './tabs';

export function Account() {
  const session = useSignedIn();
  const { signedOut } = useSession();
  return (
    <SettingsPage>
      <Section title="Account">
        <Facts
          class="card"
          items={[
            ['Email', session.user.email],
            ['Role', session.user.role],
            ['Project', session.project.name],
            ['This session ends', when(session.expires_at)],
          ]}
        />
      </Section>
      <Section class="card" title={session.user.has_password ? 'Change password' : 'Set a password'}>
        <PasswordForm onDone={() => undefined} needsCurrent={session.user.has_password && !session.via_link} />
      </Section>
      <Section class="card" title="Sessions">
        <p>Signed in on another device you no longer use? End every session of your account, this one included.</p>
        <ConfirmButton
          label="Sign out everywhere"
          danger
          title="Sign out everywhere?"
          body={<p>Every session of {session.user.email} ends, on every device, this one included.</p>}
          confirmLabel="Sign out everywhere"
          onConfirm={async () => {
            await api('POST', '/console/sign-out-everywhere');
            signedOut();
          }}
        />
      </Section>
    </SettingsPage>
  );
}
