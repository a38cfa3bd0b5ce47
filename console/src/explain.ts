/**
 * What each score the console shows measures and on what scale, one sentence each, from
 * docs/metrics.md (the section named beside each). Shown on hover and focus beside the score's name.
 */
export const EXPLANATIONS = {
  visibility_rate:
    'Visibility rate (VR): the share of all sessions in which the feature was seen or used, from 0 % (never shown) to 100 % (in every session).',
  engagement_conversion:
    'Engagement conversion (EC): of the users who saw the feature, the share who used it, from 0 % to 100 %.',
  discovery_gap_score:
    'Discovery gap score (DGS): (1 − VR) × EC × average days to discovery ÷ 30, from 0 up; high when users who find the feature use it but few see it and finding it takes long (above 1 when discovery takes over 30 days).',
  days_to_discovery:
    "Days to discovery: the mean time from a user's first event to their first use of the feature, in days.",
  friction_index:
    'Friction Index (FI): the weighted mean of the dead-click, rage-click, loop, backtrack and idle rates, from 0 (no friction) to 1 (every click dead or raging, every view a loop).',
  frequency:
    "Frequency: the share of the goal's completions that took this path, from 0 % to 100 %; the paths of a goal add up to 100 %.",
  completion_rate:
    "Completion rate: of the attempts that began with this path's first step, the share that reached the goal, from 0 % to 100 %.",
  efficiency_score:
    'Efficiency: the steps of the shortest path that reached the goal ÷ the steps users took on this path on average, from 0 to 1: 1 is as short as the shortest, 0.5 twice the steps, 0.33 three times.',
  user_share:
    'Users: the distinct users who reached the goal along this path, and their share of all users with a session.',
  avg_time: 'Average time: the mean time from the first step of the path to the goal.',
  success_rate:
    'Success rate: the share of occurrences that succeeded (their success property, else no dead click, rage click, loop or backtrack hit them), from 0 % to 100 %.',
  contextual_success_rate:
    'Contextual success rate (CSR): the success rate × (1 − Friction Index) in an empty state, the success rate itself with data present, from 0 % to 100 %.',
  completion_rate_job:
    'Completion rate: the users who reached the goal ÷ the users the job targets (and those who completed it), from 0 % to 100 %.',
} as const;

export type Explained = keyof typeof EXPLANATIONS;

/**
 * An efficiency score in words: how many times the shortest path's steps users take
 * (1 → "shortest", 0.5 → "2× the steps", 0.33 → "3× the steps").
 */
export function efficiencyWords(score: number): string {
  if (!Number.isFinite(score) || score <= 0) return '–';
  if (score >= 0.995) return 'shortest';
  const times = 1 / score;
  return `${times < 10 ? times.toFixed(1).replace(/\.0$/, '') : Math.round(times)}× the steps`;
}
