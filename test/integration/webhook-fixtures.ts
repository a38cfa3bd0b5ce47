import crypto from 'node:crypto';
import type { Services } from '../../lib/services.js';
import { services } from './helpers.js';
import { testPki } from './https-receiver.js';

export const RETRY_BASE_MS = 300;

/** The sender as an operator would configure it for these tests: the test CA trusted, loopback allowed. */
export function senderServices(allow = ['localhost', '127.0.0.1'], config: Partial<Services['config']> = {}): Services {
  const s = services();
  return {
    ...s,
    config: {
      ...s.config,
      webhookCaFile: testPki().caFile,
      webhookAllowHosts: allow,
      webhookRetryBaseMs: RETRY_BASE_MS,
      webhookLeaseMs: 6000,
      pollIntervalMs: 500,
      ...config,
    },
  };
}

/** A job completion written as the pipeline writes it; the trigger queues the deliveries. */
export async function completeJob(projectId: string, userId: string): Promise<string> {
  const jobId = `job_${crypto.randomBytes(4).toString('hex')}`;
  await services().db.query(
    `insert into job_completions (project_id, job_id, user_id, completion_id, completed_at, message_id)
     values ($1, $2, $3, $4, '2026-11-20T10:00:00Z', 'm1')`,
    [projectId, jobId, userId, `jc_${crypto.randomBytes(6).toString('hex')}`],
  );
  return jobId;
}
