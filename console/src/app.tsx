import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, setCsrfToken, whenSignedOut } from './api';
import { NavLinks } from './components/nav';
import { Loading } from './components/ui';
import { Cohorts } from './pages/cohorts';
import { EventContext } from './pages/event-context';
import { Features } from './pages/features';
import { Friction } from './pages/friction';
import { Jobs } from './pages/jobs';
import { Account } from './pages/settings/account';
import { ApiKeys } from './pages/settings/api-keys';
import { AuditLog } from './pages/settings/audit-log';
import { IntegrationWebhook } from './pages/settings/integration-webhook';
import { Members } from './pages/settings/members';
import { Subscriptions } from './pages/settings/subscriptions';
import { LinkSignIn, SignIn } from './pages/sign-in';
import { Workflows } from './pages/workflows';
import { type Session, SessionContext, isAdmin, useSession, useSignedIn } from './session';

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    whenSignedOut(() => setSession(null));
    api<Session>('GET', '/console/session').then(
      (s) => {
        setCsrfToken(s.csrf_token);
        setSession(s);
      },
      () => setSession(null),
    );
  }, []);
  const state = {
    session,
    signedIn: (s: Session) => {
      setCsrfToken(s.csrf_token);
      setSession(s);
    },
    signedOut: () => {
      setCsrfToken('');
      setSession(null);
    },
  };
  return (
    <LocationProvider scope="/console">
      <SessionContext.Provider value={state}>
        <Shell />
      </SessionContext.Provider>
    </LocationProvider>
  );
}

function Redirect({ to }: { to: string }) {
  const { route } = useLocation();
  useEffect(() => route(to, true), [to]);
  return null;
}

function Shell() {
  const { session } = useSession();
  const { path, url } = useLocation();
  if (session === undefined) return <Loading what="the console" />;
  if (path.startsWith('/console/sign-in')) {
    return (
      <main id="main" class="auth">
        <Router>
          <Route path="/console/sign-in" component={session ? () => <Redirect to="/console/features" /> : SignIn} />
          <Route path="/console/sign-in/link" component={LinkSignIn} />
        </Router>
      </main>
    );
  }
  if (!session) return <Redirect to={`/console/sign-in?next=${encodeURIComponent(url)}`} />;
  return (
    <Layout>
      <Router onRouteChange={focusHeading}>
        <Route path="/console" component={() => <Redirect to="/console/features" />} />
        <Route path="/console/features" component={Features} />
        <Route path="/console/friction" component={Friction} />
        <Route path="/console/workflows" component={Workflows} />
        <Route path="/console/cohorts" component={Cohorts} />
        <Route path="/console/jobs" component={Jobs} />
        <Route path="/console/context" component={EventContext} />
        <Route path="/console/settings" component={SettingsHome} />
        <Route path="/console/settings/api-keys" component={ApiKeys} />
        <Route
          path="/console/settings/integrations"
          component={() => <Redirect to="/console/settings/integrations/webhooks" />}
        />
        <Route path="/console/settings/integrations/webhooks" component={IntegrationWebhook} />
        <Route path="/console/settings/integrations/subscriptions" component={Subscriptions} />
        <Route path="/console/settings/members" component={Members} />
        <Route path="/console/settings/account" component={Account} />
        <Route path="/console/settings/audit-log" component={AuditLog} />
        <Route default component={NotFound} />
      </Router>
    </Layout>
  );
}

/** Settings opens on what the role may use: API keys for owners and admins, the members for the others. */
function SettingsHome() {
  return <Redirect to={isAdmin(useSignedIn()) ? '/console/settings/api-keys' : '/console/settings/members'} />;
}

/** After a client-side navigation the new page's heading takes focus, so screen readers announce it. */
function focusHeading() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus());
}

const NAV = [
  ['/console/features', 'Features'],
  ['/console/friction', 'Friction'],
  ['/console/workflows', 'Workflows'],
  ['/console/cohorts', 'Cohorts'],
  ['/console/jobs', 'Jobs'],
  ['/console/context', 'Event context'],
  ['/console/settings', 'Settings'],
] as const;

function Layout({ children }: { children: ComponentChildren }) {
  const { session, signedOut } = useSession();
  const signOut = async () => {
    await api('POST', '/console/sign-out').catch(() => undefined);
    signedOut();
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/console/features">
          Product Intelligence
        </a>
        <span class="project" title="Project">
          {session?.project.name}
        </span>
        <div class="who">
          <a href="/console/settings/account" class="who-email">
            {session?.user.email}
          </a>
          <button type="button" class="button button--quiet" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <NavLinks class="nav" label="Console" links={NAV} />
      <main id="main" class="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

function NotFound() {
  return (
    <>
      <h1 tabIndex={-1}>Not found</h1>
      <p>
        No console page lives at this address. Go to <a href="/console/features">Features</a>.
      </p>
    </>
  );
}
