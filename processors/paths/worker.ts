import { refreshWorkflows } from '../../lib/paths/workflows.js';
import { periodicWorker } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';

/** Keeps every project's workflows up to date (lib/paths/workflows.ts), every PI_POLL_INTERVAL_MS. */
export function startWorkflowWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'workflows' });
  return periodicWorker(() => refreshWorkflows(services), services.config.pollIntervalMs, log);
}
