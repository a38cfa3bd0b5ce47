/**
 * `npm run secrets:rotate`: seals every stored secret (webhook signing secrets, warehouse
 * passwords) with the first key of PI_SECRET_KEYS, opening those sealed with an older key of the
 * list and sealing those stored in plain text by an older version. The rotation procedure is in
 * docs/adr/0044-secrets-at-rest.md.
 */
import { pathToFileURL } from 'node:url';
import { UsageError, runCli } from '../lib/cli.js';
import { loadConfig } from '../lib/config.js';
import { createPool } from '../lib/db.js';
import { SecretBox, newSecretKey } from '../lib/secret-box.js';
import { resealSecrets } from '../store/secrets.js';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runCli(
    {
      usage: 'npm run secrets:rotate -- [--new-key <id>]',
      summary:
        'Seals every stored secret with the first key of PI_SECRET_KEYS (or the keys file). With --new-key, only prints a new key to put first in the list.',
      options: {
        'new-key': {
          type: 'string',
          arg: 'id',
          help: 'print a new key with this id (letters, digits, _ or -) and exit',
        },
      },
    },
    async ({ values }) => {
      if (values['new-key'] !== undefined) {
        if (!/^[A-Za-z0-9_-]{1,32}$/.test(values['new-key']))
          throw new UsageError('--new-key: letters, digits, _ or -');
        console.log(newSecretKey(values['new-key']));
        return;
      }
      const config = loadConfig();
      if (config.secretKeys.length === 0) throw new UsageError('no secret key is configured: set PI_SECRET_KEYS');
      const db = createPool(config.databaseUrl, 1);
      try {
        const changed = await resealSecrets(db, new SecretBox(config.secretKeys));
        for (const [place, n] of Object.entries(changed)) console.log(`${place}: ${n} sealed again`);
        console.log(`every stored secret is sealed with key ${config.secretKeys[0]!.id}`);
      } finally {
        await db.end();
      }
    },
  );
}
