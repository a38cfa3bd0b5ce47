import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSubmit } from '../actions';
import { api } from '../api';
import { Field, SubmitButton } from '../components/form';
import { ErrorNotice, Loading } from '../components/ui';
import { type Session, useSession } from '../session';
import { raw, text } from '../forms';

export function SignIn() {
  const { signedIn } = useSession();
  const { query, route } = useLocation();
  useEffect(() => {
    document.title = 'Sign in · Product Intelligence';
  }, []);
  const { busy, error, onSubmit } = useSubmit(async (data) => {
    const session = await api<Session>('POST', '/console/sign-in', {
      email: text(data, 'email'),
      password: raw(data, 'password'),
    });
    signedIn(session);
    const next = query.next ?? '';
    route(next.startsWith('/console/') && !next.startsWith('/console/sign-in') ? next : '/console/features');
  });
  return (
    <div class="card auth-card">
      <h1>Sign in to Product Intelligence</h1>
      <form onSubmit={onSubmit}>
        <Field label="Email">
          {(control) => <input {...control} name="email" type="email" autoComplete="username" required />}
        </Field>
        <Field label="Password">
          {(control) => <input {...control} name="password" type="password" autoComplete="current-password" required />}
        </Field>
        <ErrorNotice error={error} />
        <SubmitButton busy={busy} label="Sign in" working="Signing in…" />
      </form>
      <p class="muted">
        No password yet, or forgotten? Ask an owner of your project for a one-time sign-in link (Settings → Members in
        the console, or <code>npm run user:invite</code> on the server).
      </p>
    </div>
  );
}

/** /console/sign-in/link#token=…: signs in with the one-time token, then offers to set a password. */
export function LinkSignIn() {
  const { session, signedIn } = useSession();
  const { route } = useLocation();
  const [error, setError] = useState<unknown>();
  const [stage, setStage] = useState<'signing-in' | 'password' | 'failed'>('signing-in');
  const started = useRef(false);
  useEffect(() => {
    document.title = 'Sign in with a link · Product Intelligence';
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
    // The token leaves the address bar (and the history) at once: it is spent by the request below.
    history.replaceState(history.state, '', window.location.pathname);
    if (!token) {
      setError('This address holds no sign-in token. Open the whole link you were given.');
      setStage('failed');
      return;
    }
    api<Session>('POST', '/console/sign-in/link', { token }).then(
      (s) => {
        signedIn(s);
        setStage('password');
      },
      (err: unknown) => {
        setError(err);
        setStage('failed');
      },
    );
  }, []);
  if (stage === 'signing-in') return <Loading what="your session" />;
  if (stage === 'failed' || !session) {
    return (
      <div class="card auth-card">
        <h1>This link did not work</h1>
        <ErrorNotice error={error} />
        <p>
          Links work once and for 24 hours. Ask an owner of your project for a new one, or{' '}
          <a href="/console/sign-in">sign in with your password</a>.
        </p>
      </div>
    );
  }
  return (
    <div class="card auth-card">
      <h1>Welcome, {session.user.email}</h1>
      <p>
        You are signed in to project <strong>{session.project.name}</strong>.{' '}
        {session.user.has_password
          ? 'You may set a new password now.'
          : 'Set a password to sign in again later without a link.'}
      </p>
      <PasswordForm onDone={() => route('/console/features')} />
      {session.user.has_password && (
        <p>
          <a href="/console/features">Keep my current password and continue</a>
        </p>
      )}
    </div>
  );
}

/** New password twice; the current one too when the session needs it (set by the server's rules). */
export function PasswordForm({ onDone, needsCurrent = false }: { onDone: () => void; needsCurrent?: boolean }) {
  const { session, signedIn } = useSession();
  const [saved, setSaved] = useState(false);
  const { busy, error, onSubmit } = useSubmit(async (data, form) => {
    const password = raw(data, 'new-password');
    if (password !== raw(data, 'repeat-password')) throw new Error('The two passwords differ.');
    const current = data.has('current-password') ? raw(data, 'current-password') : undefined;
    await api('PUT', '/console/password', {
      password,
      ...(current !== undefined ? { current_password: current } : {}),
    });
    setSaved(true);
    form.reset();
    // The session no longer counts as opened by a link, and the user now has a password.
    signedIn(await api<Session>('GET', '/console/session'));
    onDone();
  });
  return (
    <form class="stack" onSubmit={onSubmit}>
      {/* Password managers file the new password under this account. */}
      <input type="email" name="username" autoComplete="username" value={session?.user.email ?? ''} readOnly hidden />
      {needsCurrent && (
        <Field label="Current password">
          {(control) => (
            <input {...control} name="current-password" type="password" autoComplete="current-password" required />
          )}
        </Field>
      )}
      <Field label="New password" hint="At least 12 characters; a few unrelated words make a good one.">
        {(control) => (
          <input {...control} name="new-password" type="password" autoComplete="new-password" minLength={12} required />
        )}
      </Field>
      <Field label="Repeat the new password">
        {(control) => (
          <input {...control} name="repeat-password" type="password" autoComplete="new-password" required />
        )}
      </Field>
      <ErrorNotice error={error} />
      {saved && (
        <p class="notice notice--good" role="status">
          Password saved. Your other sessions were signed out.
        </p>
      )}
      <SubmitButton busy={busy} label="Save password" working="Saving…" />
    </form>
  );
}
