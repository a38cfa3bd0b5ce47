import { useState } from 'preact/hooks';
import { useAction, useCreateFlow } from '../../actions';
import { ApiFailure, api } from '../../api';
import { ConfirmButton, DeleteButton, ErrorNotice, Facts, Loading, SecretOnce, Section } from '../../components/ui';
import { when } from '../../format';
import { useApi } from '../../hooks';
import { DeliveryLog } from './deliveries';
import { type Endpoint, EndpointForm } from './endpoint-form';
import { IntegrationsPage, SettingsPage } from './tabs';

interface Integration extends Endpoint {
  created_at: string;
  updated_at: string;
  secret?: string;
}

const EVENTS = [
  ['chats', 'a chat session is created or updated'],
  ['walkthrough-progress', 'a user completed a walkthrough step'],
] as const;

/** Settings → Integrations → Webhooks: the project's outbound endpoint (Connect → endpoint URL → Save). */
export const IntegrationWebhook = () => <IntegrationsPage title="Webhooks" page={WebhookEndpoint} />;

function WebhookEndpoint() {
  const current = useApi<Integration>('/settings/integrations/webhook');
  const edit = useCreateFlow<string>(current.reload);
  const [refresh, setRefresh] = useState(0);
  const [notice, setNotice] = useState<string>();
  const test = useAction();
  const notConnected = current.error instanceof ApiFailure && current.error.status === 404;
  const connected = current.data && !notConnected ? current.data : undefined;
  const sendTest = () =>
    test.run(async () => {
      setNotice(undefined);
      const queued = await api<{ delivery_id: string }>('POST', '/settings/integrations/webhook/test');
      setNotice(`Test event queued (${queued.delivery_id}); its delivery shows in the log below.`);
      setRefresh((n) => n + 1);
    });
  return (
    <SettingsPage integrations>
      <Section
        title="Webhooks"
        actions={
          !connected &&
          notConnected &&
          !edit.creating && (
            <button type="button" class="button button--primary" onClick={edit.start}>
              Connect
            </button>
          )
        }
      >
        <p class="muted">
          The service posts <code>chats</code> and <code>walkthrough-progress</code> events to your HTTPS endpoint,
          signed as Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>,{' '}
          <code>webhook-signature</code>), retried 3 times with backoff. Answer any 2xx to acknowledge.
        </p>
        {/* 404 is no error here: nothing is connected yet, and the page says so. */}
        {!notConnected && <ErrorNotice error={current.error} />}
        {current.loading && <Loading what="the integration" />}
        {notConnected && !edit.creating && <p>No endpoint is connected.</p>}
        {edit.creating && (
          <EndpointForm
            label="Connect a webhook endpoint"
            placeholder="https://example.com/webhooks/pi"
            hint="Public HTTPS only; it must accept POST with application/json."
            current={connected}
            events={EVENTS}
            checked={(event) => connected?.events.includes(event) ?? true}
            submit="Save"
            save={async (endpoint) =>
              edit.created((await api<Integration>('PUT', '/settings/integrations/webhook', endpoint)).secret)
            }
            onCancel={edit.cancel}
          />
        )}
        {edit.secret && (
          <SecretOnce
            label="Signing secret"
            value={edit.secret}
            note="Verify every delivery with it (Standard Webhooks). It is shown only this once; rotate it to get a new one."
            onDone={edit.done}
          />
        )}
        {connected && !edit.creating && (
          <div class="card">
            <Facts
              items={[
                ['Endpoint URL', connected.url, 'mono wrap'],
                ['Events', connected.events.join(', ')],
                ['Connected', when(connected.created_at)],
              ]}
            />
            {notice && (
              <p class="notice notice--good" role="status">
                {notice}
              </p>
            )}
            <ErrorNotice error={test.error} />
            <div class="row">
              <button type="button" class="button button--primary" onClick={() => void sendTest()}>
                Send test event
              </button>
              <button type="button" class="button" onClick={edit.start}>
                Change
              </button>
              <ConfirmButton
                label="Rotate secret"
                title="Issue a new signing secret?"
                body={<p>Deliveries are signed with the new secret from now on; the old one stops verifying.</p>}
                confirmLabel="Rotate secret"
                onConfirm={async () => {
                  const saved = await api<Integration>('PUT', '/settings/integrations/webhook', {
                    url: connected.url,
                    events: connected.events,
                    rotate_secret: true,
                  });
                  edit.created(saved.secret);
                }}
              />
              <DeleteButton
                label="Disconnect"
                title="Disconnect the endpoint?"
                body={<p>Nothing more is sent to it; deliveries still pending are given up.</p>}
                confirmLabel="Disconnect"
                path="/settings/integrations/webhook"
                then={() => {
                  setNotice(undefined);
                  current.reload();
                }}
              />
            </div>
          </div>
        )}
      </Section>
      <DeliveryLog target="integration" refresh={refresh} />
    </SettingsPage>
  );
}
