import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, errorText } from '../api';
import type { Loaded } from '../hooks';

/** A page: its heading (focused after navigation, for screen readers), a lead line and its content. */
export function Page(props: {
  title: string;
  lead?: ComponentChildren;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  useEffect(() => {
    document.title = `${props.title} · Product Intelligence`;
  }, [props.title]);
  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>{props.title}</h1>
          {props.lead && <p class="lead">{props.lead}</p>}
        </div>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </div>
      {props.children}
    </>
  );
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="notice notice--error" role="alert">
      {typeof error === 'string' ? error : errorText(error)}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

/**
 * What a GET has so far: its error, "Loading …" while it runs (over the previous answer, unless
 * `quiet`: a log that polls keeps its table still), and `children` with the answer once there.
 */
export function WhenLoaded<T>(props: {
  loaded: Loaded<T>;
  what: string;
  quiet?: boolean;
  children: (data: T) => ComponentChildren;
}) {
  const { data, error, loading } = props.loaded;
  return (
    <>
      <ErrorNotice error={error} />
      {loading && !(props.quiet && data) && <Loading what={props.what} />}
      {data && props.children(data)}
    </>
  );
}

/**
 * A section named by its heading (a landmark region). With `actions` (even false: the heading
 * keeps its place while a form replaces the button) the buttons sit beside the heading.
 */
export function Section(props: {
  title: ComponentChildren;
  actions?: ComponentChildren;
  class?: string;
  children?: ComponentChildren;
}) {
  const id = useId();
  const heading = <h2 id={id}>{props.title}</h2>;
  return (
    <section class={props.class} aria-labelledby={id}>
      {props.actions === undefined ? (
        heading
      ) : (
        <div class="section-head">
          {heading}
          {props.actions}
        </div>
      )}
      {props.children}
    </section>
  );
}

/** Name–value pairs (a value's class third, if any): `facts` a two-column list, `signals` a row of small figures. */
export function Facts({
  items,
  kind = 'facts',
  class: extra,
}: {
  items: readonly (readonly [name: ComponentChildren, value: ComponentChildren, valueClass?: string] | false)[];
  kind?: 'facts' | 'signals';
  class?: string;
}) {
  return (
    <dl class={extra ? `${kind} ${extra}` : kind}>
      {items.map(
        (item, i) =>
          item && (
            <div key={i}>
              <dt>{item[0]}</dt>
              <dd class={item[2]}>{item[1]}</dd>
            </div>
          ),
      )}
    </dl>
  );
}

/** A quiet button that shows or hides what follows it (aria-expanded says which). */
export function ToggleButton(props: { open: boolean; set: (open: boolean) => void; show: string; hide: string }) {
  return (
    <button
      type="button"
      class="button button--quiet"
      aria-expanded={props.open}
      onClick={() => props.set(!props.open)}
    >
      {props.open ? props.hide : props.show}
    </button>
  );
}

export function Badge({
  tone,
  children,
}: {
  tone: 'good' | 'warn' | 'bad' | 'info' | 'muted';
  children: ComponentChildren;
}) {
  return <span class={`badge badge--${tone}`}>{children}</span>;
}

/** Copies `text`; without the Clipboard API (plain http on another host) it selects `fallback` and copies that. */
export function CopyButton({
  text,
  label = 'Copy',
  fallback,
}: {
  text: string;
  label?: string;
  fallback?: () => HTMLInputElement | null;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (navigator.clipboard) await navigator.clipboard.writeText(text);
    else {
      fallback?.()?.select();
      document.execCommand('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2500);
  };
  return (
    <>
      <button type="button" class="button" onClick={() => void copy()}>
        {copied ? 'Copied' : label}
      </button>
      <span class="visually-hidden" role="status">
        {copied ? 'Copied to the clipboard' : ''}
      </span>
    </>
  );
}

/** A secret the server shows once (an API key, a signing secret, a sign-in link). */
export function SecretOnce(props: { label: string; value: string; note: ComponentChildren; onDone?: () => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <section class="secret" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} class="secret-title">
        {props.label}
      </h2>
      <p>{props.note}</p>
      <div class="secret-row">
        <label class="visually-hidden" for={id}>
          {props.label}
        </label>
        <input
          id={id}
          ref={input}
          class="mono"
          readOnly
          value={props.value}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton text={props.value} fallback={() => input.current} />
      </div>
      {props.onDone && (
        <button type="button" class="button button--quiet" onClick={props.onDone}>
          Done
        </button>
      )}
    </section>
  );
}

export function CodeBlock({ label, code }: { label: string; code: string }) {
  return (
    <figure class="code">
      <figcaption>
        <span>{label}</span>
        <CopyButton text={code} label={`Copy ${label.toLowerCase()}`} />
      </figcaption>
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/**
 * A button that asks first, in a modal <dialog>: the browser keeps focus inside it, Escape
 * cancels, and focus returns to the button afterwards.
 */
export function ConfirmButton(props: {
  label: string;
  ariaLabel?: string;
  title: string;
  body: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<unknown>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      dialog.current?.close();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        class={`button ${props.danger ? 'button--danger-quiet' : ''}`}
        aria-label={props.ariaLabel}
        onClick={() => {
          setError(undefined);
          dialog.current?.showModal();
        }}
      >
        {props.label}
      </button>
      <dialog ref={dialog} class="dialog" aria-labelledby={`${id}-t`} aria-describedby={`${id}-b`}>
        <h2 id={`${id}-t`}>{props.title}</h2>
        <div id={`${id}-b`}>{props.body}</div>
        <ErrorNotice error={error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            class={`button ${props.danger ? 'button--danger' : 'button--primary'}`}
            disabled={busy}
            onClick={() => void confirm()}
          >
            {busy ? 'Working…' : props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** A ConfirmButton for a deletion: it DELETEs `path`, then calls `then` (to reload what listed it). */
export function DeleteButton({
  path,
  then,
  ...confirm
}: Omit<Parameters<typeof ConfirmButton>[0], 'danger' | 'onConfirm'> & { path: string; then: () => void }) {
  return (
    <ConfirmButton
      {...confirm}
      danger
      onConfirm={async () => {
        await api('DELETE', path);
        then();
      }}
    />
  );
}

/** A bar for a value in [0, 1] next to its number (the number is what screen readers read). */
export function Bar({ value, tone = 'info' }: { value: number; tone?: 'info' | 'warn' | 'bad' }) {
  const pct = Math.max(0, Math.min(1, value)) * 100;
  return (
    <span class="bar" aria-hidden="true">
      <span class={`bar-fill bar-fill--${tone} w-${Math.round(pct / 5) * 5}`} />
    </span>
  );
}
