"""The shapes of the service's answers, as ``TypedDict``s: the helpers return the parsed JSON
unchanged (plain dicts and lists), and these classes tell a type checker and a reader which keys
are there. Fields the service adds later pass through untouched.

Ratios are decimals between 0 and 1; timestamps are ISO 8601 UTC strings; dates are YYYY-MM-DD.
Field meanings: docs/api.md and docs/metrics.md of the service.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict

JSON = Dict[str, Any]


class DateRange(TypedDict):
    start: str
    end: str


# --- events and users ---


class BatchAccepted(TypedDict):
    accepted: int
    message_ids: List[str]


class User(TypedDict):
    user_id: str
    properties: JSON
    created_at: str
    updated_at: str


class UserDeleted(TypedDict):
    user_id: str
    deleted: bool
    rows_deleted: int


class ExportRow(TypedDict):
    """One row of ``GET /analytics/export/events`` (format json or ndjson)."""

    message_id: str
    user_id: str
    event: str
    occurred_at: str
    received_at: str
    properties: JSON


# --- features ---


class FeatureContext(TypedDict):
    visible_in_empty_state: float
    avg_data_volume_when_used: float


class _FeatureBase(TypedDict):
    name: str
    visibility_rate: float
    engagement_conversion: float
    discovery_gap_score: float
    quadrant: str
    users_saw: int
    users_used: int
    avg_days_to_discovery: float


class Feature(_FeatureBase, total=False):
    context: FeatureContext  # present unless include_context=False


class FeatureList(TypedDict):
    features: List[Feature]
    date_range: DateRange


class FeatureMetrics(TypedDict):
    visibility_rate: float
    engagement_conversion: float
    discovery_gap_score: float


class UsagePatterns(TypedDict):
    first_week_vr: float
    month_2_plus_vr: float
    avg_days_to_discovery: float


class DiscoveryMethods(TypedDict):
    browsing: float
    power_user_exploration: float
    recommendation: float
    documentation: float


class SegmentUsage(TypedDict):
    segment: str  # "plan:pro"
    visibility_rate: float
    engagement_conversion: float


class FeatureDetail(TypedDict):
    name: str
    metrics: FeatureMetrics
    usage_patterns: UsagePatterns
    discovery_methods: DiscoveryMethods
    segmented_usage: List[SegmentUsage]
    date_range: DateRange


# --- friction ---


class FrictionSignals(TypedDict):
    dead_clicks: int
    rage_clicks: int
    confusion_loops: int
    avg_idle_time: float  # seconds


class FrictionPoint(TypedDict):
    page: str
    element: str  # "*" for the page as a whole
    friction_index: float
    signals: FrictionSignals
    users_affected: int
    recommended_actions: List[str]


class FrictionList(TypedDict):
    friction_points: List[FrictionPoint]
    date_range: DateRange


class FrictionDay(TypedDict):
    date: str
    friction_index: float


class _FrictionTrendBase(TypedDict):
    workflow: str  # "goal: step → step" by workflow, or the page by page
    friction_history: List[FrictionDay]
    trend: str  # increasing, decreasing, stable
    percent_change: float
    alert_level: str  # none, info, warning, critical


class FrictionTrend(_FrictionTrendBase, total=False):
    page: str  # by=page
    workflow_id: str  # by=workflow
    goal: str  # by=workflow


class FrictionTrends(TypedDict):
    trends: List[FrictionTrend]


# --- workflows ---


class Workflow(TypedDict):
    workflow_id: str
    goal: str
    path: List[str]
    frequency: float
    efficiency_score: float
    avg_time: float  # seconds
    completion_rate: float
    occurrences: int
    users: int
    user_share: float


class WorkflowList(TypedDict):
    workflows: List[Workflow]


class WorkflowStepFriction(TypedDict):
    step: str
    friction_index: float
    common_issues: List[str]


class WorkflowEfficiency(TypedDict):
    workflow_id: str
    goal: str
    optimal_steps: int
    actual_avg_steps: float
    efficiency_score: float
    friction_points: List[WorkflowStepFriction]


# --- behavioural cohorts (analytics) ---


class BehaviouralCohort(TypedDict):
    id: str
    name: str
    type: str  # "behavioral"
    size: int
    percentage: float
    characteristics: Dict[str, float]
    churn_risk: str
    expansion_opportunity: str


class BehaviouralCohortList(TypedDict):
    cohorts: List[BehaviouralCohort]
    computed_at: Optional[str]
    users_clustered: int
    users_excluded: int


class TopFeature(TypedDict):
    feature: str
    users: int
    share: float


class CohortSize(TypedDict):
    date: str
    size: int


class BehaviouralCohortDetail(BehaviouralCohort):
    definition: JSON  # k, silhouette, users_clustered, users_excluded, computed_at and the features used
    traits: Dict[str, float]
    top_features: List[TopFeature]
    size_over_time: List[CohortSize]


class CohortMembers(TypedDict):
    """A page of a cohort's members: for behavioural cohorts each user holds ``user_id`` and the values
    it was clustered on; for custom cohorts ``CustomCohortMember``."""

    cohort_id: str
    users: List[JSON]
    total: int
    page: int
    per_page: int


# --- event context ---


class ContextOutcome(TypedDict):
    count: int
    success_rate: float
    friction_index: float


class EmptyStateOutcome(ContextOutcome):
    common_issues: List[str]


class ContextBreakdown(TypedDict):
    with_data_present: ContextOutcome
    empty_state: EmptyStateOutcome


class EventContext(TypedDict):
    event: str
    total_occurrences: int
    context_breakdown: ContextBreakdown
    recommendations: List[str]
    date_range: DateRange


# --- jobs ---


class JobAnalyticsMetrics(TypedDict):
    completion_rate: float
    avg_time_to_completion: float
    intervention_acceptance_rate: float
    users_targeted: int
    users_completed: int


class PathToSuccess(TypedDict):
    path: List[str]
    frequency: float
    avg_time: float


class DropOffPoint(TypedDict):
    step: str
    drop_off_rate: float
    friction_index: float


class JobAnalytics(TypedDict):
    job_id: str
    name: str
    goal: Optional[str]
    metrics: JobAnalyticsMetrics
    paths_to_success: List[PathToSuccess]
    drop_off_points: List[DropOffPoint]


class TargetAudience(TypedDict, total=False):
    type: str  # all, segment
    criteria: str  # e.g. "plan == 'pro' && mrr >= 100"


class Automation(TypedDict, total=False):
    level: str  # manual, subtle_hints, guided_shortcuts, automated
    requires_confirmation: bool


class JobMetrics(TypedDict):
    completion_rate: float
    avg_time_to_completion: float
    users_targeted: int
    users_completed: int


class Job(TypedDict):
    id: str
    name: str
    description: Optional[str]
    goal: Optional[str]
    status: str  # draft, active, paused, completed, archived
    priority: Optional[str]
    target_audience: Optional[TargetAudience]
    automation: Optional[Automation]
    metrics: JobMetrics
    created_at: str
    updated_at: str


class JobListMetrics(TypedDict):
    completion_rate: float
    users_targeted: int
    users_completed: int


class JobListItem(TypedDict):
    id: str
    name: str
    status: str
    priority: Optional[str]
    created_at: str
    metrics: JobListMetrics


class JobList(TypedDict):
    jobs: List[JobListItem]
    total: int
    page: int
    per_page: int


class JobCreated(TypedDict):
    id: str
    name: str
    status: str  # "draft"
    created_at: str


class Deleted(TypedDict):
    id: str
    deleted: bool


# --- custom cohorts and webhooks ---


class CustomCohort(TypedDict):
    id: str
    name: str
    type: str  # "custom"
    criteria: Dict[str, Dict[str, Any]]  # {"features_used": {"gte": 5}}
    size: int
    created_at: str


class CustomCohortList(TypedDict):
    cohorts: List[CustomCohort]
    total: int
    page: int
    per_page: int


class CustomCohortMember(TypedDict):
    user_id: str
    events: int
    days_active: int
    sessions: int
    features_used: int
    friction_index: float
    last_seen_at: Optional[str]


class Webhook(TypedDict):
    id: str
    url: str
    events: List[str]
    status: str  # active, or paused (no new deliveries; queued ones held until active again)
    created_at: str
    updated_at: str


class WebhookCreated(Webhook):
    secret: str  # whsec_…; shown only in this answer


class WebhookTest(TypedDict):
    delivery_id: str  # the webhook-id header of the test delivery, listed in GET /webhooks/deliveries
    webhook_id: str
    event: str  # test
    status: str  # pending
