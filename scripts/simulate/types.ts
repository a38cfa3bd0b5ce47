/**
 * The simulator's vocabulary: its options, what it returns (the traffic and the answers it implies),
 * and the shape of each answer as the API reports it.
 */
import type { TrackedEventInput } from '../../domain/tracked-event.js';
import type { Workflow } from '../../domain/workflows/mining.js';

export interface SimulationOptions {
  seed: number;
  users: number;
  /** sessions per user */
  sessions: number;
  /** epoch ms: sessions start after this (use a time within the range you will query) */
  start: number;
  /** spread of session starts after `start` */
  spanMs: number;
  planted: { rage: number; dead: number; loops: number; backtracks: number; idle: number };
  /** Opt-in: users of their own (`scn-` ids) with planted workflows, job completions and behavioural groups. */
  scenarios?: ScenarioOptions;
}

export interface ScenarioOptions {
  /** users in each behavioural group (5 to 200) */
  perGroup: number;
}

export interface PageAnswer {
  dead_clicks: number;
  rage_clicks: number;
  confusion_loops: number;
  backtracks: number;
  idle_gaps: number;
  avg_idle_time: number;
  users_affected: number;
}

export interface FeatureAnswer {
  users_saw: number;
  users_used: number;
  sessions_visible: number;
  visibility_rate: number;
  engagement_conversion: number;
  /** mean over users_used of (first use − the user's first event), in days */
  avg_days_to_discovery: number;
  discovery_gap_score: number;
  quadrant: `${'high' | 'low'}_visibility_${'high' | 'low'}_usage`;
  visible_in_empty_state: number;
  avg_data_volume_when_used: number;
}

/** The facts a Friction Index is computed from (docs/metrics.md §4–5), as planted and emitted. */
export interface FrictionFacts {
  views: number;
  clicks: number;
  dead_clicks: number;
  /** clicks inside rage bursts */
  rage_clicks: number;
  rage_episodes: number;
  loop_views: number;
  backtracks: number;
  active_ms: number;
  idle_ms: number;
}

/** A point of GET /analytics/friction (docs/metrics.md §6) with default weights; element null is the page. */
export interface FrictionPointAnswer {
  page: string;
  element: string | null;
  friction_index: number;
  signals: { dead_clicks: number; rage_clicks: number; confusion_loops: number; avg_idle_time: number };
  users_affected: number;
  /** the point's facts: an element's clicks with its page's navigation and time facts */
  facts: FrictionFacts;
}

/** Occurrences of one event name in one UI context (docs/metrics.md §9) with default weights and window. */
export interface EventContextAnswer {
  count: number;
  successes: number;
  success_rate: number;
  /** occurrences hit by a signal of each kind */
  hits: { dead_click: number; rage_click: number; confusion_loop: number; backtrack: number };
  friction_index: number;
  contextual_success_rate: number;
}

export interface Answers {
  seed: number;
  users: number;
  sessions: number;
  events: number;
  pages: Record<string, PageAnswer>;
  features: Record<string, FeatureAnswer>;
  /** occurrences of feature_impression by UI context */
  impression_contexts: { with_data_present: number; empty_state: number };
  /** every page and every (page, element) clicked with friction, in the API's order: index down, then page, then element */
  friction_points: FrictionPointAnswer[];
  /** per event name emitted, as GET /analytics/context/events/{name} reports it */
  event_contexts: Record<
    string,
    { total_occurrences: number; with_data_present: EventContextAnswer; empty_state: EventContextAnswer }
  >;
  /**
   * With `scenarios`: what the scenario users imply. Every other key counts only the other users.
   * These answers are exact for a project whose only traffic is the scenarios' (`users: 0`): user_share,
   * completion rates, the job's targets and the clustering all count every user of the project.
   */
  scenarios?: ScenarioAnswers;
}

export type BehaviouralGroup = 'power' | 'struggler' | 'casual' | 'explorer';

/** A workflow of the scenarios' goal as GET /analytics/workflows reports it (docs/metrics.md, "Workflows"). */
export type WorkflowAnswer = Pick<
  Workflow,
  'path' | 'occurrences' | 'frequency' | 'users' | 'user_share' | 'completion_rate' | 'avg_time'
>;

export interface ScenarioAnswers {
  /** every scenario user id starts with it */
  user_prefix: string;
  users: number;
  sessions: number;
  events: number;
  /** the goal's workflows, most occurrences first (ties by JSON of the path), "other" last */
  workflows: { goal: string; attempts: number; completions: number; workflows: WorkflowAnswer[] };
  /** a job to create (and activate) before the traffic is sent, and its numbers (docs/metrics.md, "12. Jobs") */
  job: {
    goal: string;
    target_audience: { type: 'segment'; criteria: string };
    users_targeted: number;
    users_completed: number;
    completion_rate: number;
    /** seconds */
    avg_time_to_completion: number;
  };
  /** the planted group of every scenario user */
  groups: Record<string, BehaviouralGroup>;
}

export interface Simulation {
  users: { user_id: string; properties: Record<string, unknown> }[];
  events: TrackedEventInput[];
  answers: Answers;
}
