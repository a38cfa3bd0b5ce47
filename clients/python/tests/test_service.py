"""The client against the running service (PI_BASE_URL, PI_API_KEY): real HTTP, real Kafka and
Postgres behind it. Events are checked where they end up: the raw export."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import threading
import time
import unittest
import uuid

from product_intelligence import ApiError, ProductIntelligenceError

from .support import RUN, FaultProxy, client, export_window, service, stored_rows, wait_for

CLIENT_SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def unique(name: str) -> str:
    return f"{RUN}-{name}-{uuid.uuid4().hex[:6]}"


class Errors:
    """An on_error callback that keeps what it was given."""

    def __init__(self):
        self.calls = []
        self._lock = threading.Lock()

    def __call__(self, error: ProductIntelligenceError, events: list) -> None:
        with self._lock:
            self.calls.append((error, events))


class TrackTest(unittest.TestCase):
    def setUp(self):
        self.reader = client()

    def test_a_tracked_event_with_a_message_id_is_stored(self):
        tracker = client(flush_interval=0.1)
        event, message_id = unique("stored"), unique("m")
        returned = tracker.track(RUN + "-u1", event, {"page": "/reports", "n": 1}, message_id=message_id)
        self.assertEqual(returned, message_id)
        self.assertTrue(tracker.flush(timeout=30))
        self.assertEqual(tracker.delivered_count, 1)
        rows = wait_for("the event in the export", lambda: stored_rows(self.reader, event, [message_id]))
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["user_id"], RUN + "-u1")
        self.assertEqual(rows[0]["properties"], {"page": "/reports", "n": 1})
        tracker.shutdown()

    def test_a_bad_event_goes_to_on_error_with_the_400_and_the_rest_of_its_batch_is_stored(self):
        errors = Errors()
        tracker = client(flush_interval=60, on_error=errors)
        event = unique("mixed")
        good = [tracker.track(RUN + "-u2", event, {"i": i}) for i in range(3)]
        bad = tracker.track(RUN + "-u2", "", {"i": "bad"})  # an empty name: the service's min_length
        good.append(tracker.track(RUN + "-u2", event, {"i": 3}))
        self.assertTrue(tracker.flush(timeout=30))

        self.assertEqual(len(errors.calls), 1)
        error, events = errors.calls[0]
        self.assertIsInstance(error, ApiError)
        self.assertEqual((error.status, error.code), (400, "invalid_request"))
        self.assertEqual(error.details, {"field": "events[3].event", "reason": "min_length"})
        self.assertEqual([e["message_id"] for e in events], [bad])
        self.assertEqual((tracker.delivered_count, tracker.failed_count), (4, 1))
        rows = wait_for("the 4 good events", lambda: (r := stored_rows(self.reader, event, good)) and len(r) == 4 and r)
        self.assertEqual(sorted(r["message_id"] for r in rows), sorted(good))
        tracker.shutdown()

    def test_retries_carry_the_same_message_id_honour_retry_after_and_store_the_event_once(self):
        base_url, _ = service()
        script = [(503, {}), (429, {"Retry-After": "1"})]
        with FaultProxy(base_url, script) as proxy:
            tracker = client(host=proxy.base_url, flush_interval=0, retry_base_delay=0.05, retry_max_delay=0.2)
            event, message_id = unique("retried"), unique("m")
            tracker.track(RUN + "-u3", event, message_id=message_id)
            self.assertTrue(tracker.flush(timeout=30))
            attempts = [s for s in proxy.seen if s.path == "/v1/events/batch"]
            tracker.shutdown()

        self.assertEqual(len(attempts), 3, "503, then 429, then forwarded")
        ids = [[e["message_id"] for e in json.loads(a.body)["events"]] for a in attempts]
        self.assertEqual(ids, [[message_id]] * 3)
        self.assertGreaterEqual(attempts[2].at - attempts[1].at, 1.0, "Retry-After: 1 waited out")
        self.assertEqual((tracker.delivered_count, tracker.failed_count), (1, 0))
        rows = wait_for("the retried event", lambda: stored_rows(self.reader, event, [message_id]))
        time.sleep(1)  # anything sent twice would be stored by now; the export must still hold one row
        self.assertEqual(len(stored_rows(self.reader, event, [message_id])), 1)
        self.assertEqual(rows[0]["message_id"], message_id)

    def test_requests_are_cut_at_1000_events_and_1_mib_and_the_service_takes_each(self):
        base_url, _ = service()
        limit = 1_048_576
        with FaultProxy(base_url) as proxy:
            tracker = client(host=proxy.base_url, batch_size=1000, flush_interval=60, max_queue_size=2000)
            small, big = unique("small"), unique("big")
            small_ids = [tracker.track(RUN + "-u6", small, {"i": i}) for i in range(1001)]
            self.assertTrue(tracker.flush(timeout=60))
            # About 4 kB each, 300 of them: more than 1 MiB. One user each, so that the service's Kafka
            # batches spread over partitions (the same user's 1 MiB is more than Kafka takes at once).
            for i in range(300):
                tracker.track(f"{RUN}-u6-{i}", big, {"i": i, "blob": "x" * 4000})
            self.assertTrue(tracker.flush(timeout=60))
            tracker.shutdown()

        bodies = [s.body for s in proxy.seen]
        counts = [len(json.loads(b)["events"]) for b in bodies]
        self.assertEqual(counts[:2], [1000, 1])
        self.assertEqual(sum(counts[2:]), 300)
        self.assertEqual(len(counts), 4, "300 events of 4 kB: two requests")
        self.assertEqual((tracker.delivered_count, tracker.failed_count), (1301, 0), "every request answered 202")
        self.assertTrue(all(len(b) <= limit for b in bodies))
        first_of_next = len(json.dumps(json.loads(bodies[3])["events"][0], ensure_ascii=False, separators=(",", ":")))
        self.assertGreater(len(bodies[2]) + 1 + first_of_next, limit, "the next event would not have fitted")
        rows = wait_for(
            "the 1,001 small events", lambda: (r := stored_rows(self.reader, small, small_ids)) and len(r) == 1001 and r
        )
        self.assertEqual(len(rows), 1001)

    def test_a_full_queue_drops_the_oldest_never_blocks_and_delivers_the_newest(self):
        base_url, _ = service()
        with FaultProxy(base_url, hold=True) as proxy:
            tracker = client(host=proxy.base_url, max_queue_size=3, flush_interval=60, timeout=30)
            event = unique("bounded")
            started = time.monotonic()
            ids = [tracker.track(RUN + "-u4", event, {"i": i}) for i in range(10)]
            self.assertLess(time.monotonic() - started, 0.5, "track must not wait for the network")
            self.assertEqual(tracker.dropped_count, 7)

            flushed = []
            flusher = threading.Thread(target=lambda: flushed.append(tracker.flush(timeout=30)))
            flusher.start()
            wait_for("the held request", lambda: proxy.seen, timeout=10)
            proxy.release()
            flusher.join(35)
            self.assertEqual(flushed, [True])
            tracker.shutdown()

        sent = [[e["message_id"] for e in json.loads(s.body)["events"]] for s in proxy.seen]
        self.assertEqual(sent[0], ids[7:], "the newest 3 in one batch")
        rows = wait_for(
            "the newest 3 events", lambda: (r := stored_rows(self.reader, event, ids)) and len(r) >= 3 and r
        )
        self.assertEqual(sorted(r["message_id"] for r in rows), sorted(ids[7:]))

    def test_events_tracked_by_a_program_that_exits_without_flushing_arrive(self):
        base_url, api_key = service()
        event, message_id = unique("at-exit"), unique("m")
        program = (
            "import product_intelligence as pi, sys\n"
            "c = pi.Client(api_key=sys.argv[1], host=sys.argv[2], flush_interval=300)\n"
            "c.track(sys.argv[3], sys.argv[4], {'via': 'atexit'}, message_id=sys.argv[5])\n"
        )
        env = {**os.environ, "PYTHONPATH": CLIENT_SOURCE}
        done = subprocess.run(
            [sys.executable, "-c", program, api_key, base_url, RUN + "-u5", event, message_id],
            env=env,
            capture_output=True,
            timeout=60,
        )
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        rows = wait_for("the event of the exited program", lambda: stored_rows(self.reader, event, [message_id]))
        self.assertEqual(rows[0]["properties"], {"via": "atexit"})


class UsersTest(unittest.TestCase):
    def test_identify_update_and_delete_a_user_whose_events_then_leave_the_export(self):
        api = client(flush_interval=0)
        user = unique("user")
        created = api.identify(user, {"plan": "free", "mrr": 0})
        self.assertEqual((created["user_id"], created["properties"]), (user, {"plan": "free", "mrr": 0}))
        updated = api.update_user(user, {"plan": "pro", "mrr": None, "company": {"size": 40}})
        self.assertEqual(updated["properties"], {"plan": "pro", "company": {"size": 40}})
        self.assertEqual(api.get_user(user)["properties"], updated["properties"])
        again = api.identify(user, {"seats": 3})
        self.assertEqual(again["properties"], {"plan": "pro", "company": {"size": 40}, "seats": 3})

        event = unique("erased")
        ids = [api.track(user, event, {"i": i}) for i in range(2)]
        self.assertTrue(api.flush(timeout=30))
        wait_for("the user's events", lambda: len(stored_rows(api, event, ids)) == 2)

        deleted = api.delete_user(user)
        self.assertEqual((deleted["user_id"], deleted["deleted"]), (user, True))
        self.assertGreaterEqual(deleted["rows_deleted"], 3, "2 events and the user row")
        self.assertEqual(stored_rows(api, event, ids), [])
        with self.assertRaises(ApiError) as caught:
            api.get_user(user)
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "not_found"))
        with self.assertRaises(ApiError) as caught:
            api.update_user(user, {"plan": "pro"})
        self.assertEqual(caught.exception.status, 404)
        api.shutdown()


class IdentityTest(unittest.TestCase):
    def test_a_sign_up_funnel_counts_as_one_person_and_its_anonymous_id_links_to_no_second_user(self):
        api = client(flush_interval=0)
        anonymous_id, user, feature = unique("anon"), unique("signed-up"), unique("feature")
        hour_ago = dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=1)

        def at(seconds):
            return hour_ago + dt.timedelta(seconds=seconds)

        # Before sign-up the person is known by the anonymous id only: seen and used, data_volume 10.
        api.track(anonymous_id, "page_view", {"page": "/signup"}, timestamp=at(0))
        api.track(anonymous_id, "feature_impression", {"page": "/signup", "feature": feature}, timestamp=at(1))
        used = {"page": "/signup", "feature": feature, "ui_context": {"data_volume": 10}}
        api.track(anonymous_id, "feature_used", used, timestamp=at(2))
        self.assertTrue(api.flush(timeout=30))

        self.assertEqual(api.identify(user, {"plan": "trial"}, anonymous_id=anonymous_id)["user_id"], user)
        # After sign-up, under the user id: used again, data_volume 30.
        used = {"page": "/welcome", "feature": feature, "ui_context": {"data_volume": 30}}
        api.track(user, "feature_used", used, timestamp=at(3))
        self.assertTrue(api.flush(timeout=30))

        # The mean data volume is 20 only once both uses are counted; two people would be users_used 2.
        last = []

        def one_person():
            found = [f for f in api.features(date_range="last_7_days")["features"] if f["name"] == feature]
            last[:] = found
            item = found and found[0]
            return (
                item
                and item["context"]["avg_data_volume_when_used"] == 20
                and (item["users_saw"], item["users_used"]) == (1, 1)
                and item
            )

        try:
            item = wait_for("both uses of the feature counted as one person", one_person, timeout=90)
        except AssertionError as err:
            raise AssertionError(f"{err}; the feature last read: {last}") from None
        self.assertEqual(item["engagement_conversion"], 1)
        self.assertEqual(api.get_user(user)["user_id"], user)

        # The same link again is harmless; a second user, or a signed-up user's id as anonymous id, is refused.
        self.assertEqual(api.identify(user, anonymous_id=anonymous_id)["user_id"], user)
        for anonymous, reason in ((anonymous_id, "linked_to_another_user"), (user, "identified_user")):
            with self.assertRaises(ApiError) as caught:
                api.identify(unique("other"), anonymous_id=anonymous)
            refused = caught.exception
            self.assertEqual(
                (refused.status, refused.code, refused.details),
                (409, "conflict", {"field": "anonymous_id", "reason": reason}),
            )
        api.shutdown()


class ReadsTest(unittest.TestCase):
    def test_features_feature_detail_and_event_context_answer_after_events(self):
        api = client(flush_interval=0)
        user, feature, goal = unique("reader"), unique("feature"), unique("goal")
        api.identify(user, {"plan": "pro"})
        api.track(user, "page_view", {"page": "/reports"})
        api.track(
            user, "feature_impression", {"page": "/reports", "feature": feature, "ui_context": {"empty_state": True}}
        )
        api.track(user, "feature_used", {"page": "/reports", "feature": feature, "ui_context": {"data_volume": 10}})
        api.track(user, goal, {"page": "/reports", "success": True, "ui_context": {"data_present": True}})
        self.assertTrue(api.flush(timeout=30))

        def listed():
            found = [f for f in api.features(date_range="last_7_days")["features"] if f["name"] == feature]
            return found and found[0]["users_used"] >= 1 and found[0]

        item = wait_for("the feature in /analytics/features", listed, timeout=90)
        self.assertEqual((item["users_saw"], item["users_used"]), (1, 1))
        self.assertEqual(item["engagement_conversion"], 1)
        self.assertEqual(item["context"]["visible_in_empty_state"], 1)
        self.assertEqual(item["context"]["avg_data_volume_when_used"], 10)
        self.assertIn(item["quadrant"], ("high_visibility_high_usage", "low_visibility_high_usage"))

        detail = api.feature(feature, date_range="last_7_days")
        self.assertEqual(detail["name"], feature)
        self.assertEqual(detail["metrics"]["engagement_conversion"], 1)
        self.assertEqual(
            set(detail["discovery_methods"]), {"browsing", "power_user_exploration", "recommendation", "documentation"}
        )

        context = wait_for("the goal's context", lambda: self._context(api, goal))
        self.assertEqual(context["context_breakdown"]["with_data_present"]["count"], 1)
        self.assertEqual(context["context_breakdown"]["with_data_present"]["success_rate"], 1)

        with self.assertRaises(ApiError) as caught:
            api.feature(unique("never-seen"))
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "not_found"))
        with self.assertRaises(ApiError) as caught:
            api.features(date_range="last_8_days")
        self.assertEqual((caught.exception.status, caught.exception.details.get("field")), (400, "date_range"))

        friction = api.friction(page="/reports", **export_window())
        self.assertIn("friction_points", friction)
        self.assertEqual(friction["date_range"]["start"], str(export_window()["start"]))
        self.assertIsInstance(api.friction_trends(by="page")["trends"], list)
        self.assertIsInstance(api.behavioural_cohorts()["cohorts"], list)
        self.assertIsInstance(api.workflows(goal=goal)["workflows"], list)
        api.shutdown()

    @staticmethod
    def _context(api, goal):
        try:
            return api.event_context(goal, date_range="last_7_days")
        except ApiError as err:
            if err.status == 404:
                return None
            raise

    def test_jobs_crud_with_typed_answers_and_errors(self):
        api = client()
        name = unique("job")
        created = api.create_job(
            name,
            goal=unique("never-tracked-goal"),
            priority="medium",
            target_audience={"type": "segment", "criteria": "plan == 'pro'"},
            automation={"level": "subtle_hints", "requires_confirmation": False},
        )
        self.assertEqual((created["name"], created["status"]), (name, "draft"))
        self.assertTrue(created["id"].startswith("job_"))

        job = api.get_job(created["id"])
        self.assertEqual(job["target_audience"], {"type": "segment", "criteria": "plan == 'pro'"})
        self.assertEqual(job["metrics"]["users_targeted"], 0)

        with self.assertRaises(ApiError) as caught:
            api.update_job(created["id"], status="paused")
        conflict = caught.exception
        self.assertEqual((conflict.status, conflict.code), (409, "conflict"))
        self.assertEqual((conflict.details["from"], conflict.details["to"]), ("draft", "paused"))

        updated = api.update_job(created["id"], status="active", priority="high")
        self.assertEqual((updated["status"], updated["priority"]), ("active", "high"))
        listed = api.list_jobs(status="active", per_page=100)
        self.assertIn(created["id"], [j["id"] for j in listed["jobs"]])
        self.assertEqual(listed["per_page"], 100)
        analytics = api.job_analytics(created["id"])
        self.assertEqual(analytics["job_id"], created["id"])
        self.assertEqual(
            set(analytics["metrics"]),
            {
                "completion_rate",
                "avg_time_to_completion",
                "intervention_acceptance_rate",
                "users_targeted",
                "users_completed",
            },
        )

        self.assertEqual(api.delete_job(created["id"]), {"id": created["id"], "deleted": True})
        with self.assertRaises(ApiError) as caught:
            api.get_job(created["id"])
        self.assertEqual(caught.exception.status, 404)

        with self.assertRaises(ApiError) as caught:
            api.create_job("")
        self.assertEqual((caught.exception.status, caught.exception.details["field"]), (400, "name"))
        api.shutdown()

    def test_custom_cohorts_and_webhooks(self):
        api = client()
        name = unique("cohort")
        cohort = api.create_custom_cohort(name, {"events": {"gte": 1}})
        self.assertEqual((cohort["name"], cohort["type"]), (name, "custom"))
        self.assertIn(cohort["id"], [c["id"] for c in api.custom_cohorts(per_page=100)["cohorts"]])
        members = api.custom_cohort_users(cohort["id"])
        self.assertEqual(members["cohort_id"], cohort["id"])
        with self.assertRaises(ApiError) as caught:
            api.create_custom_cohort(name, {"mood": {"gte": 1}})
        self.assertEqual(caught.exception.details.get("reason"), "unknown_metric")
        self.assertEqual(api.delete_custom_cohort(cohort["id"]), {"id": cohort["id"], "deleted": True})
        self.assertNotIn(cohort["id"], [c["id"] for c in api.custom_cohorts(per_page=100)["cohorts"]])

        # A name that never resolves, and an event these tests never cause: nothing is sent anywhere
        # (the test delivery is attempted and fails on the name).
        hook = api.create_webhook("https://hooks.example.invalid/" + RUN, ["job.completed"])
        self.assertTrue(hook["secret"].startswith("whsec_"))
        self.assertEqual(api.get_webhook(hook["id"])["status"], "active")
        paused = api.update_webhook(hook["id"], events=["cohort.changed"], status="paused")
        self.assertEqual(
            (paused["events"], paused["status"], paused["url"]), (["cohort.changed"], "paused", hook["url"])
        )
        self.assertNotIn("secret", api.get_webhook(hook["id"]))
        with self.assertRaises(ApiError) as caught:
            api.update_webhook(hook["id"], url="http://hooks.example.invalid/")
        self.assertEqual(caught.exception.details.get("reason"), "https_required")
        sent = api.test_webhook(hook["id"])
        self.assertEqual((sent["webhook_id"], sent["event"], sent["status"]), (hook["id"], "test", "pending"))
        self.assertEqual(api.delete_webhook(hook["id"]), {"id": hook["id"], "deleted": True})
        with self.assertRaises(ApiError) as caught:
            api.create_webhook("http://hooks.example.invalid/", ["job.completed"])
        self.assertEqual(caught.exception.details.get("reason"), "https_required")
        api.shutdown()


if __name__ == "__main__":
    unittest.main()
