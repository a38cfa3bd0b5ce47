import { pathToFileURL } from 'node:url';
import { parseOnly, runCli } from '../lib/cli.js';
import { type Stoppable, runRole } from '../lib/role.js';
import type { Services } from '../lib/services.js';
import { startBehaviouralCohortWorker } from './behavioural-cohorts/worker.js';
import { startCohortMembership } from './cohort-membership/worker.js';
import { startJobWorker } from './jobs/worker.js';
import { startReportWorker } from './reports/worker.js';
import { startWarehouseExportWorker } from './warehouse-export/worker.js';
import { startWebhookSender } from './webhooks/sender.js';
import { startRetentionWorker } from './retention/worker.js';
import { startWorkflowWorker } from './workflows/worker.js';

/**
 * The workers role: Postgres-driven work on rows the sinks and the API wrote. Every worker is
 * safe to run in several processes at once (claims with SKIP LOCKED, per-project advisory locks).
 */
export const WORKERS = {
  'webhook-sender': startWebhookSender,
  'cohort-membership': startCohortMembership,
  reports: (services: Services) => startReportWorker(services),
  jobs: startJobWorker,
  workflows: startWorkflowWorker,
  'behavioural-cohorts': startBehaviouralCohortWorker,
  'warehouse-export': startWarehouseExportWorker,
  retention: startRetentionWorker,
} as const;
export type WorkerName = keyof typeof WORKERS;
export const WORKER_NAMES = Object.keys(WORKERS) as WorkerName[];

export async function startWorkers(services: Services, names: WorkerName[] = WORKER_NAMES): Promise<Stoppable[]> {
  return Promise.all(names.map((name) => WORKERS[name](services)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runCli(
    {
      usage: 'npm run workers -- [--only webhook-sender,jobs,…]',
      summary: 'The workers role: every Postgres-driven worker, or the ones named. Safe to run in several copies.',
      options: { only: { type: 'string', arg: 'names', help: `a subset of ${WORKER_NAMES.join(', ')}` } },
    },
    async ({ values }) => {
      const only = parseOnly(values.only, WORKER_NAMES);
      await runRole('workers', (services) => startWorkers(services, only), { parts: only });
    },
  );
}
