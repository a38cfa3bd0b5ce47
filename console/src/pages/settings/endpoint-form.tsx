import { useSubmit } from '../../actions';
import { CheckGroup, Field, FormActions } from '../../components/form';
import { ErrorNotice } from '../../components/ui';
import { someChecked, text } from '../../forms';

export interface Endpoint {
  url: string;
  events: string[];
}

/** An HTTPS endpoint and the events it is sent: the integration webhook's form and a subscription's. */
export function EndpointForm(props: {
  label: string;
  placeholder: string;
  hint?: string;
  current?: Endpoint;
  events: readonly (readonly [event: string, meaning: string])[];
  checked: (event: string) => boolean;
  submit: string;
  save: (endpoint: Endpoint) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { busy, error, onSubmit } = useSubmit((data) =>
    props.save({ url: text(data, 'url'), events: someChecked(data, 'event', 'event') }),
  );
  return (
    <form class="card stack" aria-label={props.label} onSubmit={onSubmit}>
      <Field label="Endpoint URL" hint={props.hint}>
        {(control) => (
          <input
            {...control}
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder={props.placeholder}
            defaultValue={props.current?.url}
            autoFocus
          />
        )}
      </Field>
      <CheckGroup legend="Events" name="event" options={props.events} checked={props.checked} />
      <ErrorNotice error={error} />
      <FormActions busy={busy} label={props.submit} working="Saving…" onCancel={props.onCancel} />
    </form>
  );
}
