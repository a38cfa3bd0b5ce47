import { useCreateFlow } from '../../actions';
import { api } from '../../api';
import { ACTIONS, DataTable } from '../../components/table';
import { DeleteButton, SecretOnce, Section, WhenLoaded } from '../../components/ui';
import { when } from '../../format';
import { useApi } from '../../hooks';
import { DeliveryLog } from './deliveries';
import { EndpointForm } from './endpoint-form';
import { IntegrationsPage, SettingsPage } from './tabs';

interface Subscription {
  id: string;
  url: string;
  events: string[];
  created_at: string;
}

const EVENTS = [
  ['job.completed', 'a targeted user reached a job’s goal'],
  ['user.friction_detected', 'a rage-click burst or a confusion loop of a user'],
  ['cohort.changed', 'a cohort (custom or behavioural) gained or lost members'],
] as const;

/** Settings → Integrations → Subscriptions: POST/GET/DELETE /v1/webhooks. */
export const Subscriptions = () => <IntegrationsPage title="Webhook subscriptions" page={SubscriptionList} />;

function SubscriptionList() {
  const list = useApi<{ webhooks: Subscription[]; total: number }>('/webhooks?per_page=100');
  const create = useCreateFlow<string>(list.reload);
  return (
    <SettingsPage integrations>
      <Section
        title="Webhook subscriptions"
        actions={
          !create.creating && (
            <button type="button" class="button button--primary" onClick={create.start}>
              Add subscription
            </button>
          )
        }
      >
        <p class="muted">
          Service events sent to your HTTPS endpoints as <code>{'{ event, data, timestamp }'}</code>, signed and retried
          like the integration webhook.
        </p>
        {create.creating && (
          <EndpointForm
            label="New webhook subscription"
            placeholder="https://example.com/hooks"
            events={EVENTS}
            checked={(event) => event === 'job.completed'}
            submit="Save subscription"
            save={async (endpoint) =>
              create.created((await api<{ secret: string }>('POST', '/webhooks', endpoint)).secret)
            }
            onCancel={create.cancel}
          />
        )}
        {create.secret && (
          <SecretOnce
            label="Signing secret of the new subscription"
            value={create.secret}
            note="Shown only this once: store it where your endpoint verifies signatures."
            onDone={create.done}
          />
        )}
        <WhenLoaded loaded={list} what="subscriptions">
          {(data) =>
            data.webhooks.length === 0 ? (
              <p>No subscriptions yet.</p>
            ) : (
              <DataTable label="Webhook subscriptions" columns={['Endpoint', 'Events', 'Created', ACTIONS]}>
                {data.webhooks.map((w) => (
                  <tr key={w.id}>
                    <th scope="row" class="mono wrap">
                      {w.url}
                    </th>
                    <td>{w.events.join(', ')}</td>
                    <td>{when(w.created_at)}</td>
                    <td>
                      <DeleteButton
                        label="Delete"
                        ariaLabel={`Delete subscription ${w.url}`}
                        title="Delete this subscription?"
                        body={<p class="wrap">Nothing more is sent to {w.url}.</p>}
                        confirmLabel="Delete subscription"
                        path={`/webhooks/${w.id}`}
                        then={list.reload}
                      />
                    </td>
                  </tr>
                ))}
              </DataTable>
            )
          }
        </WhenLoaded>
      </Section>
      <DeliveryLog target="subscription" refresh={0} />
    </SettingsPage>
  );
}
