import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** GET /v1/console/session */
export interface Session {
  user: { id: string; email: string; role: 'owner' | 'member'; has_password: boolean };
  project: { id: string; name: string };
  csrf_token: string;
  via_link: boolean;
  expires_at: string;
}

export interface SessionState {
  /** undefined while asking the server, null when signed out */
  session: Session | null | undefined;
  signedIn: (session: Session) => void;
  signedOut: () => void;
}

export const SessionContext = createContext<SessionState>({
  session: undefined,
  signedIn: () => undefined,
  signedOut: () => undefined,
});

export const useSession = () => useContext(SessionContext);

/** For pages that render only when signed in. */
export function useSignedIn(): Session {
  const { session } = useSession();
  if (!session) throw new Error('this page needs a session');
  return session;
}
