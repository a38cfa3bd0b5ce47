"""Typed helpers for the analytics and administration endpoints (docs/api.md of the service).

Each one is a synchronous call that returns the parsed answer or raises ``ApiError`` /
``NetworkError``. Reads and idempotent writes are retried like events (network errors, 5xx, 429);
creating a job, cohort or webhook is sent again only when the service surely did not apply it.
"""

from __future__ import annotations

import datetime as _dt
import http.client
import json
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union, cast

from ._transport import Transport, path_of
from .errors import NetworkError
from .types import (
    BehaviouralCohortDetail,
    BehaviouralCohortList,
    CohortMembers,
    CustomCohort,
    CustomCohortList,
    Deleted,
    EventContext,
    ExportRow,
    FeatureDetail,
    FeatureList,
    FrictionList,
    FrictionTrends,
    Job,
    JobAnalytics,
    JobCreated,
    JobList,
    Webhook,
    WebhookCreated,
    WebhookTest,
    WorkflowEfficiency,
    WorkflowList,
)

DateLike = Union[str, _dt.date]

_JOB_FIELDS = ("name", "description", "goal", "priority", "status", "target_audience", "automation")


def date_range_query(date_range: Optional[str], start: Optional[DateLike], end: Optional[DateLike]) -> Dict[str, Any]:
    """``start``/``end`` without a ``date_range`` mean ``custom``."""
    if date_range is None and (start is not None or end is not None):
        date_range = "custom"
    return {"date_range": date_range, "start": start, "end": end}


class ReadHelpers:
    _transport: Transport

    def _get(self, path: str, query: Optional[Mapping[str, Any]] = None) -> Any:
        return self._transport.send("GET", path, query, max_wait=self._transport.timeout).json()

    def _write(self, method: str, path: str, body: Any = None, idempotent: bool = True) -> Any:
        return self._transport.send(
            method, path, body=body, idempotent=idempotent, max_wait=self._transport.timeout
        ).json()

    # --- analytics ---

    def features(
        self,
        date_range: Optional[str] = None,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
        segment: Optional[str] = None,
        include_context: Optional[bool] = None,
    ) -> FeatureList:
        """``GET /analytics/features``. ``segment`` is ``property:value`` (``plan:pro``)."""
        query = {**date_range_query(date_range, start, end), "segment": segment, "include_context": include_context}
        return cast(FeatureList, self._get("/analytics/features", query))

    def feature(
        self,
        name: str,
        date_range: Optional[str] = None,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
        segment_by: Optional[str] = None,
    ) -> FeatureDetail:
        """``GET /analytics/features/{name}``; 404 when the feature was never seen."""
        query = {**date_range_query(date_range, start, end), "segment_by": segment_by}
        return cast(FeatureDetail, self._get(path_of("analytics", "features", name), query))

    def friction(
        self,
        page: Optional[str] = None,
        min_friction_index: Optional[float] = None,
        date_range: Optional[str] = None,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
    ) -> FrictionList:
        """``GET /analytics/friction``, highest Friction Index first."""
        query = {**date_range_query(date_range, start, end), "page": page, "min_friction_index": min_friction_index}
        return cast(FrictionList, self._get("/analytics/friction", query))

    def friction_trends(
        self, by: Optional[str] = None, goal: Optional[str] = None, workflow_id: Optional[str] = None
    ) -> FrictionTrends:
        """``GET /analytics/friction/trends`` (the last 28 days); ``by`` is ``workflow`` or ``page``."""
        query = {"by": by, "goal": goal, "workflow_id": workflow_id}
        return cast(FrictionTrends, self._get("/analytics/friction/trends", query))

    def workflows(self, goal: Optional[str] = None, min_frequency: Optional[float] = None) -> WorkflowList:
        """``GET /analytics/workflows``; a goal asked for the first time is mined during the call."""
        return cast(WorkflowList, self._get("/analytics/workflows", {"goal": goal, "min_frequency": min_frequency}))

    def workflow_efficiency(self, workflow_id: str) -> WorkflowEfficiency:
        return cast(WorkflowEfficiency, self._get(path_of("analytics", "workflows", workflow_id, "efficiency")))

    def behavioural_cohorts(self) -> BehaviouralCohortList:
        """``GET /analytics/cohorts``: users clustered by behaviour."""
        return cast(BehaviouralCohortList, self._get("/analytics/cohorts"))

    def behavioural_cohort(self, cohort_id: str) -> BehaviouralCohortDetail:
        return cast(BehaviouralCohortDetail, self._get(path_of("analytics", "cohorts", cohort_id)))

    def behavioural_cohort_users(
        self, cohort_id: str, page: Optional[int] = None, per_page: Optional[int] = None
    ) -> CohortMembers:
        query = {"page": page, "per_page": per_page}
        return cast(CohortMembers, self._get(path_of("analytics", "cohorts", cohort_id, "users"), query))

    def event_context(
        self,
        event_name: str,
        date_range: Optional[str] = None,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
    ) -> EventContext:
        """``GET /analytics/context/events/{event_name}``; 404 when the event was never recorded."""
        query = date_range_query(date_range, start, end)
        return cast(EventContext, self._get(path_of("analytics", "context", "events", event_name), query))

    def job_analytics(self, job_id: str) -> JobAnalytics:
        return cast(JobAnalytics, self._get(path_of("analytics", "jobs", job_id)))

    # --- jobs ---

    def list_jobs(
        self, status: Optional[str] = None, page: Optional[int] = None, per_page: Optional[int] = None
    ) -> JobList:
        return cast(JobList, self._get("/jobs", {"status": status, "page": page, "per_page": per_page}))

    def get_job(self, job_id: str) -> Job:
        return cast(Job, self._get(path_of("jobs", job_id)))

    def create_job(self, name: str, **fields: Any) -> JobCreated:
        """``POST /jobs``: ``name`` and any of description, goal, priority, target_audience, automation."""
        body = {"name": name, **_job_fields(fields)}
        return cast(JobCreated, self._write("POST", "/jobs", body, idempotent=False))

    def update_job(self, job_id: str, **fields: Any) -> Job:
        """``PATCH /jobs/{id}``; ``status`` moves the job (409 ``conflict`` when the move is not allowed)."""
        return cast(Job, self._write("PATCH", path_of("jobs", job_id), _job_fields(fields)))

    def delete_job(self, job_id: str) -> Deleted:
        return cast(Deleted, self._write("DELETE", path_of("jobs", job_id)))

    # --- custom cohorts and webhooks ---

    def create_custom_cohort(self, name: str, criteria: Mapping[str, Mapping[str, Any]]) -> CustomCohort:
        """``POST /cohorts``: ``criteria`` like ``{"features_used": {"gte": 5}}``."""
        body = {"name": name, "criteria": criteria}
        return cast(CustomCohort, self._write("POST", "/cohorts", body, idempotent=False))

    def custom_cohorts(self, page: Optional[int] = None, per_page: Optional[int] = None) -> CustomCohortList:
        """``GET /cohorts?type=custom`` (the list holds behavioural cohorts too without the type)."""
        return cast(CustomCohortList, self._get("/cohorts", {"type": "custom", "page": page, "per_page": per_page}))

    def delete_custom_cohort(self, cohort_id: str) -> Deleted:
        """``DELETE /cohorts/{id}``; a behavioural cohort answers 409 ``conflict`` (it is computed)."""
        return cast(Deleted, self._write("DELETE", path_of("cohorts", cohort_id)))

    def custom_cohort_users(
        self, cohort_id: str, page: Optional[int] = None, per_page: Optional[int] = None
    ) -> CohortMembers:
        """Members as ``CustomCohortMember`` dicts."""
        query = {"page": page, "per_page": per_page}
        return cast(CohortMembers, self._get(path_of("cohorts", cohort_id, "users"), query))

    def create_webhook(self, url: str, events: Sequence[str]) -> WebhookCreated:
        """``POST /webhooks``: an https URL and events among job.completed, user.friction_detected,
        cohort.changed. The answer's ``secret`` is shown only once."""
        body = {"url": url, "events": list(events)}
        return cast(WebhookCreated, self._write("POST", "/webhooks", body, idempotent=False))

    def get_webhook(self, webhook_id: str) -> Webhook:
        """``GET /webhooks/{id}``: the subscription without its secret."""
        return cast(Webhook, self._get(path_of("webhooks", webhook_id)))

    def update_webhook(
        self,
        webhook_id: str,
        url: Optional[str] = None,
        events: Optional[Sequence[str]] = None,
        status: Optional[str] = None,
    ) -> Webhook:
        """``PATCH /webhooks/{id}``: any of ``url`` (checked as at creation), ``events`` and ``status``
        (``"paused"``: no new deliveries, queued ones held; ``"active"`` resumes). Left out, a field keeps its value."""
        body: Dict[str, Any] = {"url": url, "events": None if events is None else list(events), "status": status}
        changes = {name: value for name, value in body.items() if value is not None}
        return cast(Webhook, self._write("PATCH", path_of("webhooks", webhook_id), changes))

    def test_webhook(self, webhook_id: str) -> WebhookTest:
        """``POST /webhooks/{id}/test``: queues a signed delivery of event ``test`` (sent even while paused)."""
        return cast(WebhookTest, self._write("POST", path_of("webhooks", webhook_id, "test"), idempotent=False))

    def delete_webhook(self, webhook_id: str) -> Deleted:
        return cast(Deleted, self._write("DELETE", path_of("webhooks", webhook_id)))

    # --- raw export ---

    def export_events(
        self,
        date_range: Optional[str] = None,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
        event_types: Optional[Sequence[str]] = None,
    ) -> List[ExportRow]:
        """``GET /analytics/export/events`` as a list of rows (format json), oldest first."""
        query = {"format": "json", **date_range_query(date_range, start, end), "event_types": event_types}
        return cast(List[ExportRow], self._get("/analytics/export/events", query))

    def export_events_csv(
        self,
        date_range: Optional[str] = None,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
        event_types: Optional[Sequence[str]] = None,
    ) -> str:
        """The same rows as CSV text (header row, CRLF line ends, properties as JSON text)."""
        query = {"format": "csv", **date_range_query(date_range, start, end), "event_types": event_types}
        answer = self._transport.send("GET", "/analytics/export/events", query, max_wait=self._transport.timeout)
        return answer.body.decode("utf-8")

    def iter_export_events(
        self,
        date_range: Optional[str] = None,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
        event_types: Optional[Sequence[str]] = None,
    ) -> Iterator[ExportRow]:
        """Streams the rows (NDJSON) without holding the file in memory; the request starts with the
        iteration. One attempt, no retries: a transfer that breaks off raises ``NetworkError`` after
        the rows already yielded."""
        query = {"format": "ndjson", **date_range_query(date_range, start, end), "event_types": event_types}
        with self._transport.open("GET", "/analytics/export/events", query, accept="application/x-ndjson") as answer:
            try:
                for line in answer:
                    if line.strip():
                        yield cast(ExportRow, json.loads(line))
            except (OSError, ValueError, http.client.HTTPException) as err:
                raise NetworkError(f"the export broke off: {err!r}", err) from None


def _job_fields(fields: Mapping[str, Any]) -> Dict[str, Any]:
    unknown = set(fields) - set(_JOB_FIELDS)
    if unknown:
        raise TypeError(f"unknown job field(s): {', '.join(sorted(unknown))}")
    return {key: value for key, value in fields.items() if value is not None}
