import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';

export interface Action {
  /** True while an action runs: its button refuses a second click meanwhile. */
  busy: boolean;
  /** What the last try failed with, for an ErrorNotice; cleared when the next try starts. */
  error: unknown;
  run: (action: () => Promise<unknown>) => Promise<void>;
}

/** A change the user asked for (a click, a form): an error is shown, never thrown away. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/**
 * useAction for a form: submitting runs `action` with the form's data instead of loading a page.
 * An input the server need not see is refused by throwing an Error whose message says what to fix.
 */
export function useSubmit(action: (data: FormData, form: HTMLFormElement) => Promise<unknown>) {
  const { busy, error, run } = useAction();
  const onSubmit = (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    void run(() => action(new FormData(form), form));
  };
  return { busy, error, onSubmit };
}

/**
 * A settings section's create flow: a form while `creating`; once the server answered, the form
 * closes, the list reloads, and the secret it showed once (a key, a signing secret) stays on
 * screen until done(). An answer without a secret leaves the one shown before.
 */
export function useCreateFlow<Secret>(reload: () => void) {
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<Secret>();
  return {
    creating,
    secret,
    start: () => setCreating(true),
    cancel: () => setCreating(false),
    created: (shown: Secret | undefined) => {
      setCreating(false);
      if (shown !== undefined) setSecret(shown);
      reload();
    },
    done: () => setSecret(undefined),
  };
}
