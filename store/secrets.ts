import type { Pool } from '../lib/db.js';
import { SEALED, type SecretBox, isSealed } from '../lib/secret-box.js';

/**
 * Every stored secret: the statement that lists them (key and value) and the one that replaces a
 * value only if it is still the one read (a concurrent change wins over the rotation).
 */
const STORED_SECRETS = [
  {
    name: 'webhook_subscriptions.secret',
    sealedAs: SEALED.webhookSecret,
    list: 'select project_id::text as a, webhook_id as b, secret as value from webhook_subscriptions',
    update: 'update webhook_subscriptions set secret = $4 where project_id = $1 and webhook_id = $2 and secret = $3',
  },
  {
    name: 'integration_webhooks.secret',
    sealedAs: SEALED.webhookSecret,
    // One endpoint per project: the project is the whole key (named twice to keep one parameter list).
    list: 'select project_id::text as a, project_id::text as b, secret as value from integration_webhooks',
    update:
      'update integration_webhooks set secret = $4 where project_id = $1 and project_id = $2::uuid and secret = $3',
  },
  {
    name: 'warehouse_exports.credentials.password',
    sealedAs: SEALED.warehousePassword,
    list: `select project_id::text as a, export_id as b, credentials->>'password' as value from warehouse_exports
           where credentials ? 'password'`,
    update: `update warehouse_exports set credentials = jsonb_set(credentials, '{password}', to_jsonb($4::text))
             where project_id = $1 and export_id = $2 and credentials->>'password' = $3`,
  },
] as const;

/**
 * Seals every stored secret with the box's first key: values sealed with an older key are opened
 * and sealed again, plain ones (stored before secrets were sealed) are sealed. Returns how many
 * values changed per place. Run after putting a new key first in PI_SECRET_KEYS; once it reports
 * nothing left under the old key, the old key can go.
 */
export async function resealSecrets(db: Pool, box: SecretBox): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const place of STORED_SECRETS) {
    changed[place.name] = 0;
    const { rows } = await db.query<{ a: string; b: string; value: string }>(place.list);
    for (const row of rows) {
      if (box.current(row.value)) continue;
      const plain = isSealed(row.value) ? box.open(row.value, place.sealedAs) : row.value;
      const { rowCount } = await db.query(place.update, [row.a, row.b, row.value, box.seal(plain, place.sealedAs)]);
      changed[place.name] = (changed[place.name] ?? 0) + (rowCount ?? 0);
    }
  }
  return changed;
}
