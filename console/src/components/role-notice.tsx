import { refusalText, roleRefusal } from '../roles';
import { useSignedIn } from '../session';
import { ErrorNotice } from './ui';

/**
 * In place of what the signed-in role may not use: which roles may. `allowed` from the console's
 * mirror of the roles (console/src/roles.ts) or from the server's refusal.
 */
export function RoleNotice({ what, allowed }: { what: string; allowed: readonly string[] }) {
  const { user } = useSignedIn();
  return (
    <p class="notice" role="status">
      {refusalText(what, user.role, allowed)}
    </p>
  );
}

/**
 * An action's error; a role refusal (403, reason "role": the role changed since this page was
 * loaded, or the console did not foresee it) names the roles that may, from the server's answer.
 */
export function ActionError({ error, what }: { error: unknown; what: string }) {
  const refused = roleRefusal(error);
  if (!refused) return <ErrorNotice error={error} />;
  return (
    <p class="notice notice--error" role="alert">
      {refusalText(what, refused.role, refused.allowed)}
    </p>
  );
}
