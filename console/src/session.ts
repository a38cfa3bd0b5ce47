import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { ADMIN_ROLES, MEMBER_ROLES, type Role, WRITER_ROLES } from './roles';

/** GET /v1/console/session */
export interface Session {
  user: { id: string; email: string; role: Role; has_password: boolean };
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

/** Owners and admins hold the admin scope (settings, keys, destinations): api/console/roles.ts. */
export const isAdmin = (session: Session): boolean => ADMIN_ROLES.includes(session.user.role);

/** Owners, admins and members create, change and delete jobs and cohorts; viewers read them. */
export const writesDefinitions = (session: Session): boolean => WRITER_ROLES.includes(session.user.role);

/** Owners manage the members: invite, remove, change roles, issue sign-in links. */
export const managesMembers = (session: Session): boolean => MEMBER_ROLES.includes(session.user.role);

export const useSession = () => useContext(SessionContext);

/** For pages that render only when signed in. */
export function useSignedIn(): Session {
  const { session } = useSession();
  if (!session) throw new Error('this page needs a session');
  return session;
}
