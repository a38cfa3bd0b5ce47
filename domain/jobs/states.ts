/**
 * The Job lifecycle. The spec's only rule is "any state → active" by PATCH; the rest is ours:
 *
 *   draft ──► active ◄──► paused          any state ──► active  (activate, resume, reopen, unarchive)
 *               │            │            active | paused ──► completed
 *               └──► completed ◄┘         any state but archived ──► archived
 *
 * Staying in the same state is a no-op, not an error. Every other move is a 409 conflict.
 */
export const JOB_STATES = ['draft', 'active', 'paused', 'completed', 'archived'] as const;
export type JobState = (typeof JOB_STATES)[number];

const MOVES: Record<JobState, JobState[]> = {
  draft: ['active', 'archived'],
  active: ['paused', 'completed', 'archived'],
  paused: ['active', 'completed', 'archived'],
  completed: ['active', 'archived'],
  archived: ['active'],
};

export function canMove(from: JobState, to: JobState): boolean {
  return from === to || MOVES[from].includes(to);
}

export function allowedMoves(from: JobState): JobState[] {
  return [...MOVES[from]];
}
