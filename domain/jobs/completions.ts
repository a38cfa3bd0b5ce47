import crypto from 'node:crypto';
import { type Properties, parseCriteria } from './audience.js';

export interface ActiveJob {
  job_id: string;
  goal: string;
  /** epoch ms: goal events received before the job existed do not complete it */
  created_at: number;
  target_audience: { type: 'all' | 'segment'; criteria?: string } | null;
}

export interface GoalEvent {
  user_id: string;
  event: string;
  message_id: string;
  occurred_at: number;
  received_at: number;
}

export interface JobCompletion {
  completion_id: string;
  job_id: string;
  user_id: string;
  message_id: string;
  completed_at: number;
}

/**
 * Which events complete which jobs: a goal event of an active job, received after the job was
 * created, by a user the job targets (judged on the user's properties now). A user completes a
 * job once: the earliest such event of the batch.
 */
export function jobCompletions(
  events: GoalEvent[],
  jobs: ActiveJob[],
  propertiesOf: (userId: string) => Properties,
): JobCompletion[] {
  const completions = new Map<string, JobCompletion>();
  const audiences = new Map(
    jobs.map((j) => [
      j.job_id,
      j.target_audience?.type === 'segment' && j.target_audience.criteria
        ? parseCriteria(j.target_audience.criteria)
        : () => true,
    ]),
  );
  const ordered = [...events].sort((a, b) => a.occurred_at - b.occurred_at || a.message_id.localeCompare(b.message_id));
  for (const e of ordered) {
    for (const job of jobs) {
      if (job.goal !== e.event || e.received_at < job.created_at) continue;
      const key = `${job.job_id}\u0000${e.user_id}`;
      if (completions.has(key) || !audiences.get(job.job_id)!(propertiesOf(e.user_id))) continue;
      completions.set(key, {
        completion_id: `jc_${crypto.createHash('sha256').update(key).digest('hex').slice(0, 24)}`,
        job_id: job.job_id,
        user_id: e.user_id,
        message_id: e.message_id,
        completed_at: e.occurred_at,
      });
    }
  }
  return [...completions.values()];
}
