import { useEffect } from 'preact/hooks';
import { useAction } from '../../actions';
import { api } from '../../api';
import { DataTable, ACTIONS } from '../../components/table';
import { Badge, ErrorNotice, Section, WhenLoaded } from '../../components/ui';
import { when } from '../../format';
import { useApi } from '../../hooks';

interface Delivery {
  id: string;
  webhook_id: string | null;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
}

const TONE = { pending: 'info', succeeded: 'good', failed: 'bad' } as const;

/**
 * The delivery log of the integration endpoint or of the subscriptions: status, attempts, last
 * error, redeliver. While a delivery is pending it looks again every 2 s; `refresh` (bumped by the
 * page after it queued something) makes it look at once.
 */
export function DeliveryLog({ target, refresh }: { target: 'integration' | 'subscription'; refresh: number }) {
  const log = useApi<{ deliveries: Delivery[]; total: number }>(`/webhooks/deliveries?target=${target}&per_page=20`);
  const { data, reload } = log;
  const redelivery = useAction();
  useEffect(() => {
    if (refresh > 0) reload();
  }, [refresh]);
  const pending = data?.deliveries.some((d) => d.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  }, [data]);
  const redeliver = (id: string) =>
    redelivery.run(async () => {
      await api('POST', `/webhooks/deliveries/${id}/redeliver`);
      reload();
    });
  return (
    <Section
      title="Delivery log"
      actions={
        <button type="button" class="button button--quiet" onClick={reload}>
          Refresh
        </button>
      }
    >
      <ErrorNotice error={redelivery.error} />
      <WhenLoaded loaded={log} what="deliveries" quiet>
        {(data) =>
          data.deliveries.length === 0 ? (
            <p class="muted">Nothing delivered yet.</p>
          ) : (
            <DataTable
              label="Deliveries"
              columns={[
                'Event',
                'Status',
                { label: 'Attempts', num: true },
                'Last answer or error',
                'Created',
                ACTIONS,
              ]}
            >
              {data.deliveries.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    {d.event} <span class="mono muted id">{d.id}</span>
                  </th>
                  <td>
                    <Badge tone={TONE[d.status]}>{d.status}</Badge>
                    {d.next_attempt_at && <span class="muted"> next {when(d.next_attempt_at)}</span>}
                  </td>
                  <td class="num">{d.attempts}</td>
                  <td class="wrap">{d.last_error ?? (d.last_status !== null ? `HTTP ${d.last_status}` : '–')}</td>
                  <td>{when(d.created_at)}</td>
                  <td>
                    {d.status !== 'pending' && (
                      <button
                        type="button"
                        class="button button--quiet"
                        aria-label={`Redeliver ${d.event} ${d.id}`}
                        onClick={() => void redeliver(d.id)}
                      >
                        Redeliver
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </WhenLoaded>
    </Section>
  );
}
