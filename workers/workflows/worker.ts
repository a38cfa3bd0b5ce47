import { listen, wakeLoop } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';
import { WORKFLOW_GOAL_CHANNEL } from '../../store/workflow-goals.js';
import { refreshWorkflows } from './refresh.js';

/**
 * Keeps every project's workflows up to date (workers/workflows/refresh.ts): every
 * PI_POLL_INTERVAL_MS, and at once when the API records a goal asked for the first time.
 */
export function startWorkflowWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'workflows' });
  const loop = wakeLoop(async () => {
    await refreshWorkflows(services);
  }, log);
  const listener = listen({
    databaseUrl: services.config.databaseUrl,
    channels: [WORKFLOW_GOAL_CHANNEL],
    pollMs: services.config.pollIntervalMs,
    log,
    onWake: () => loop.wake(),
  });
  return Promise.resolve({
    async stop() {
      await listener.close();
      await loop.stop();
    },
  });
}
