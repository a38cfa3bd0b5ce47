import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { text } from '../forms';
import { words } from '../format';
import { useQueryParam } from '../hooks';

/** What ties a control to its label and hint: spread it on the input, select or textarea. */
export interface Control {
  id: string;
  'aria-describedby'?: string;
}

/**
 * A label and its control (`children` renders it with the Control props), tied by a fresh id; a
 * hint, when given, is read after the label. `hiddenLabel` is for controls in a row whose meaning
 * the row shows (cohort conditions): screen readers still hear the label.
 */
export function Field(props: {
  label: ComponentChildren;
  hint?: ComponentChildren;
  hiddenLabel?: boolean;
  children: (control: Control) => ComponentChildren;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  return (
    <>
      <label for={id} class={props.hiddenLabel ? 'visually-hidden' : undefined}>
        {props.label}
      </label>
      {props.children({ id, 'aria-describedby': hintId })}
      {props.hint && (
        <p id={hintId} class="hint">
          {props.hint}
        </p>
      )}
    </>
  );
}

/**
 * A select's options, in words ("subtle_hints" → "Subtle hints") unless `label` says otherwise;
 * `selected` is the one chosen at first in a select the browser keeps (no `value`).
 */
export function choices(
  values: readonly string[],
  { selected, label = words }: { selected?: string; label?: (value: string) => string } = {},
) {
  return values.map((value) => (
    <option key={value} value={value} selected={selected === undefined ? undefined : value === selected}>
      {label(value)}
    </option>
  ));
}

/** Checkboxes of one name: each its value in code beside what it means. */
export function CheckGroup(props: {
  legend: string;
  name: string;
  options: readonly (readonly [value: string, meaning: string])[];
  checked: (value: string) => boolean;
}) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map(([value, meaning]) => (
        <label key={value} class="check">
          <input type="checkbox" name={props.name} value={value} defaultChecked={props.checked(value)} />{' '}
          <code>{value}</code> <span class="muted">{meaning}</span>
        </label>
      ))}
    </fieldset>
  );
}

interface Submit {
  busy: boolean;
  label: string;
  /** Shown instead of the label while the form is being sent ("Saving…"). */
  working: string;
}

export function SubmitButton({ busy, label, working }: Submit) {
  return (
    <button type="submit" class="button button--primary" disabled={busy}>
      {busy ? working : label}
    </button>
  );
}

/** A form's submit button beside Cancel. */
export function FormActions({ onCancel, ...submit }: Submit & { onCancel: () => void }) {
  return (
    <div class="row">
      <SubmitButton {...submit} />
      <button type="button" class="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * A one-field form that puts what is typed in the page's address (?param=…), so a reload or a
 * shared link keeps it; the page reads it with useQueryParam(param). `children` go after the button.
 */
export function QueryForm(props: {
  param: string;
  formLabel: string;
  label: string;
  placeholder: string;
  submit: string;
  required?: boolean;
  suggestions?: readonly string[];
  children?: ComponentChildren;
}) {
  const [value, setValue] = useQueryParam(props.param);
  const listId = useId();
  return (
    <form
      class="range"
      aria-label={props.formLabel}
      onSubmit={(e) => {
        e.preventDefault();
        setValue(text(new FormData(e.currentTarget), props.param));
      }}
    >
      <div class="field">
        <Field label={props.label}>
          {(control) => (
            <input
              {...control}
              name={props.param}
              list={props.suggestions && listId}
              required={props.required}
              placeholder={props.placeholder}
              defaultValue={value}
            />
          )}
        </Field>
        {props.suggestions && (
          <datalist id={listId}>
            {props.suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        )}
      </div>
      <button type="submit" class="button">
        {props.submit}
      </button>
      {props.children}
    </form>
  );
}
