import { type Properties, parseCriteria } from './audience.js';

export interface TargetedJob {
  job_id: string;
  target_audience: { type: 'all' | 'segment'; criteria?: string } | null;
}

export interface KnownUser {
  user_id: string;
  /** null for a user only seen in events, never identified */
  properties: Properties | null;
}

/**
 * The users a job targets: every known user for an `all` audience (or none given), the
 * identified users whose properties satisfy the criteria for a segment. A user seen only in
 * events has no properties, so no segment holds them.
 */
export function targetedUsers(job: TargetedJob, users: KnownUser[]): string[] {
  const audience = job.target_audience;
  if (!audience || audience.type === 'all' || !audience.criteria) return users.map((u) => u.user_id).sort();
  const matches = parseCriteria(audience.criteria);
  return users
    .filter((u) => u.properties !== null && matches(u.properties))
    .map((u) => u.user_id)
    .sort();
}

export interface DropOffInput {
  step: string;
  /** targeted users who took this step after the job started */
  reached: number;
  /** of those, the users who have not completed and whose last step it is */
  dropped: number;
  friction_index: number;
}

/** Steps where users who have not completed stopped, worst first: drop_off_rate = dropped ÷ reached. */
export function dropOffPoints(steps: DropOffInput[], limit = 10) {
  return steps
    .filter((s) => s.dropped > 0 && s.reached > 0)
    .map((s) => ({
      step: s.step,
      drop_off_rate: s.dropped / s.reached,
      friction_index: s.friction_index,
      users: s.dropped,
    }))
    .sort((a, b) => b.users - a.users || b.drop_off_rate - a.drop_off_rate || a.step.localeCompare(b.step))
    .slice(0, limit);
}
