import { listen, wakeLoop } from '../../lib/notify.js';
import { workerPace } from '../../lib/pacing.js';
import type { Services } from '../../lib/services.js';
import { WORKFLOW_GOAL_CHANNEL } from '../../store/workflow-goals.js';
import { refreshWorkflows } from './refresh.js';

/**
 * Keeps every project's workflows up to date (workers/workflows/refresh.ts): every
 * PI_POLL_INTERVAL_MS, paced by PI_WORKER_SHARE_PERCENT, and at once when the API records a goal
 * asked for the first time.
 */
export function startWorkflowWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'workflows' });
  const loop = wakeLoop(
    async () => {
      await refreshWorkflows(services);
    },
    log,
    workerPace(services.config),
  );
  const listener = listen({
    databaseUrl: services.config.databaseUrl,
    channels: [WORKFLOW_GOAL_CHANNEL],
    pollMs: services.config.pollIntervalMs,
    log,
    // A goal asked for the first time has a user waiting on its answer: no rest.
    onWake: (reason) => loop.wake(reason === 'notification'),
  });
  return Promise.resolve({
    async stop() {
      await listener.close();
      await loop.stop();
    },
  });
}
