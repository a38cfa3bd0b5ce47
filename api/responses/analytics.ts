import {
  type Schema,
  array,
  date,
  int,
  literal,
  nullable,
  num,
  numbers,
  obj,
  enumOf,
  pageMembers,
  ratio,
  ref,
  str,
  strings,
  timestamp,
} from './shapes.js';

const contextOutcome = {
  count: int,
  success_rate: ratio,
  friction_index: ratio,
  contextual_success_rate: { ...ratio, description: 'CSR: success_rate × the context quality factor' },
};
/** The spec's Cohort record (GET /analytics/cohorts). */
const cohortFields = {
  id: str,
  name: str,
  type: literal('behavioral'),
  size: int,
  percentage: ratio,
  characteristics: numbers,
  churn_risk: str,
  expansion_opportunity: str,
  created_at: timestamp,
};
const topFeatures = array(obj({ feature: str, users: int, share: ratio }));
const sizeOverTime = array(obj({ date, size: int }));
const frictionHistory = array(obj({ date, friction_index: ratio }));
/** On answers that cover all history unless date_range is given. */
const window = { date_range: { ...ref('DateRange'), description: 'present when date_range was given' } };
const cohortWindow = {
  ...window,
  active_members: { ...int, description: 'with date_range: members (as of now) with a session in the range' },
};

/** The analytics read API (/analytics/…): the contract's shapes, and what this service adds to them. */
export const ANALYTICS_SCHEMAS = {
  DateRange: obj({ start: date, end: date }, {}, 'the days the answer covers, UTC'),
  FeatureUsage: obj(
    {
      name: str,
      visibility_rate: ratio,
      engagement_conversion: ratio,
      discovery_gap_score: num,
      quadrant: enumOf(
        'high_visibility_high_usage',
        'high_visibility_low_usage',
        'low_visibility_high_usage',
        'low_visibility_low_usage',
      ),
      users_saw: int,
      users_used: int,
      avg_days_to_discovery: num,
    },
    {
      context: obj({ visible_in_empty_state: ratio, avg_data_volume_when_used: num }, {}, 'with include_context=true'),
    },
  ),
  FeatureList: obj({
    features: array(ref('FeatureUsage')),
    ...pageMembers(),
    date_range: ref('DateRange'),
    quadrant_thresholds: obj(
      { visibility_rate: ratio, engagement_conversion: ratio },
      {},
      "the project's effective quadrant thresholds: a feature is high on a rate at or above its threshold",
    ),
  }),
  FeatureDetail: obj({
    name: str,
    metrics: obj({ visibility_rate: ratio, engagement_conversion: ratio, discovery_gap_score: num }),
    usage_patterns: obj({ first_week_vr: ratio, month_2_plus_vr: ratio, avg_days_to_discovery: num }),
    discovery_methods: obj({
      browsing: ratio,
      power_user_exploration: ratio,
      recommendation: ratio,
      documentation: ratio,
    }),
    segmented_usage: array(obj({ segment: str, visibility_rate: ratio, engagement_conversion: ratio })),
    usage_over_time: array(
      obj({
        date,
        users_saw: { ...int, description: 'distinct users with an impression or a use that day' },
        users_used: { ...int, description: 'distinct users with a use that day' },
        impressions: int,
        uses: int,
      }),
      'every UTC day of date_range, oldest first (days without activity hold zeros)',
    ),
    date_range: ref('DateRange'),
  }),
  Workflow: obj({
    workflow_id: str,
    goal: str,
    path: strings,
    frequency: ratio,
    efficiency_score: num,
    avg_time: { ...num, description: 'seconds' },
    completion_rate: ratio,
    occurrences: int,
    users: int,
    user_share: ratio,
  }),
  WorkflowList: obj(
    { workflows: array(ref('Workflow')), ...pageMembers() },
    {
      ...window,
      status: {
        ...literal('computing'),
        description: 'with 202: the goal is being mined; ask again after Retry-After',
      },
    },
  ),
  WorkflowEfficiency: obj(
    {
      workflow_id: str,
      goal: str,
      optimal_steps: int,
      actual_avg_steps: num,
      efficiency_score: num,
      friction_points: array(obj({ step: str, friction_index: ratio, common_issues: strings })),
    },
    { ...window, occurrences: { ...int, description: 'with date_range: completions along the path in the range' } },
  ),
  Goals: obj({ goals: strings }),
  BehaviouralCohort: obj(cohortFields),
  BehaviouralCohortList: obj({
    cohorts: array(ref('BehaviouralCohort')),
    ...pageMembers(),
    computed_at: nullable(timestamp),
    users_clustered: int,
    users_excluded: int,
  }),
  BehaviouralCohortDetail: obj(
    {
      ...cohortFields,
      definition: {
        type: 'object',
        description: 'how the clustering that found the cohort was run',
        required: ['k', 'silhouette', 'users_clustered', 'users_excluded', 'computed_at'],
        properties: {
          k: int,
          silhouette: nullable(num),
          users_clustered: int,
          users_excluded: int,
          computed_at: timestamp,
        },
      },
      traits: numbers,
      top_features: topFeatures,
      size_over_time: sizeOverTime,
    },
    cohortWindow,
  ),
  CustomCohortDetail: obj(
    {
      id: str,
      name: str,
      type: literal('custom'),
      criteria: ref('cohort-create/properties/criteria'),
      size: int,
      created_at: timestamp,
      percentage: ratio,
      characteristics: nullable(numbers),
      churn_risk: nullable(str),
      expansion_opportunity: nullable(str),
      top_features: topFeatures,
      size_over_time: sizeOverTime,
    },
    cohortWindow,
    "a custom cohort graded by the clustering's rules (null while it has no members)",
  ),
  CohortDetail: { oneOf: [ref('BehaviouralCohortDetail'), ref('CustomCohortDetail')] },
  BehaviouralCohortUsers: obj({
    cohort_id: str,
    type: literal('behavioral'),
    users: array({
      type: 'object',
      required: ['user_id'],
      properties: { user_id: str },
      additionalProperties: num,
      description: 'the behaviour the user was clustered on',
    }),
    ...pageMembers(),
  }),
  FrictionPoint: obj({
    page: str,
    element: { ...nullable(str), description: 'null for the page as a whole' },
    friction_index: ratio,
    signals: obj({ dead_clicks: int, rage_clicks: int, confusion_loops: int, avg_idle_time: num }),
    users_affected: int,
    recommended_actions: strings,
  }),
  FrictionList: obj({
    friction_points: array(ref('FrictionPoint')),
    ...pageMembers(false),
    date_range: ref('DateRange'),
  }),
  FrictionTrend: obj(
    {
      workflow: str,
      friction_history: frictionHistory,
      trend: enumOf('increasing', 'decreasing', 'stable'),
      percent_change: num,
      alert_level: enumOf('none', 'info', 'warning', 'critical'),
    },
    { page: str, workflow_id: str, goal: str },
  ),
  FrictionTrends: obj({
    trends: array(ref('FrictionTrend')),
    ...pageMembers(false),
    date_range: ref('DateRange'),
  }),
  EventContext: obj({
    event: str,
    total_occurrences: int,
    context_breakdown: obj({
      with_data_present: obj(contextOutcome),
      empty_state: obj({ ...contextOutcome, common_issues: strings }),
    }),
    recommendations: strings,
    date_range: ref('DateRange'),
  }),
  JobAnalytics: obj(
    {
      job_id: str,
      name: str,
      goal: nullable(str),
      metrics: obj({
        completion_rate: ratio,
        avg_time_to_completion: num,
        intervention_acceptance_rate: ratio,
        users_targeted: int,
        users_completed: int,
      }),
      paths_to_success: array(obj({ path: strings, frequency: ratio, avg_time: num })),
      drop_off_points: array(obj({ step: str, drop_off_rate: ratio, friction_index: ratio })),
    },
    window,
  ),
} satisfies Record<string, Schema>;
