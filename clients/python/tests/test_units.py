"""Pure parts of the client, no network: batching, backoff, header and URL handling."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import uuid

from product_intelligence import Client, InvalidEventError
from product_intelligence._batching import (
    MAX_BODY_BYTES,
    MAX_EVENT_BYTES,
    batch_body,
    batch_length,
    encode,
    format_timestamp,
    rejected_index,
)
from product_intelligence._retry import backoff_delay, may_retry, parse_retry_after, retry_delay
from product_intelligence._transport import base_url_of, error_of, path_of
from product_intelligence.client import identify_body
from product_intelligence.errors import ApiError, NetworkError


class BatchingTest(unittest.TestCase):
    def test_a_batch_stops_at_the_event_count(self):
        self.assertEqual(batch_length([10] * 2500, 1000), 1000)
        self.assertEqual(batch_length([10] * 7, 1000), 7)
        self.assertEqual(batch_length([], 1000), 0)

    def test_a_batch_stops_before_the_body_would_pass_the_byte_limit(self):
        sizes = [400_000, 400_000, 400_000]
        self.assertEqual(batch_length(sizes, 1000), 2)
        body = batch_body([b"x" * s for s in sizes[:2]])
        self.assertLessEqual(len(body), MAX_BODY_BYTES)

    def test_the_byte_limit_counts_the_envelope_and_the_commas_exactly(self):
        room = MAX_BODY_BYTES - len(batch_body([])) - 1  # two events and one comma
        self.assertEqual(len(batch_body([b"x" * 100, b"x" * (room - 100)])), MAX_BODY_BYTES)
        self.assertEqual(batch_length([100, room - 100], 1000), 2)
        self.assertEqual(batch_length([100, room - 99], 1000), 1)
        self.assertEqual(batch_length([MAX_EVENT_BYTES], 1000), 1)

    def test_the_event_a_400_names_is_found(self):
        self.assertEqual(rejected_index("events[3].user_id", 5), 3)
        self.assertEqual(rejected_index("events[0].properties.ui_context.empty_state", 1), 0)
        self.assertIsNone(rejected_index("events[9].event", 5), "not in this batch")
        self.assertIsNone(rejected_index("events", 5))
        self.assertIsNone(rejected_index(None, 5))

    def test_encoding_is_compact_utf8_and_converts_common_types(self):
        value = {
            "at": dt.datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=dt.timezone.utc),
            "day": dt.date(2025, 3, 1),
            "price": decimal.Decimal("1.5"),
            "id": uuid.UUID(int=1),
            "name": "Zoë",
        }
        self.assertEqual(
            json.loads(encode(value)),
            {
                "at": "2025-03-01T12:00:00.123Z",
                "day": "2025-03-01",
                "price": 1.5,
                "id": "00000000-0000-0000-0000-000000000001",
                "name": "Zoë",
            },
        )
        self.assertIn("Zoë".encode("utf-8"), encode(value))
        with self.assertRaises(TypeError):
            encode({"x": object()})
        with self.assertRaises(ValueError):
            encode({"x": float("nan")})

    def test_timestamps_carry_a_zone(self):
        self.assertEqual(format_timestamp(dt.datetime(2025, 3, 1, 12, 0)), "2025-03-01T12:00:00.000Z")
        plus_two = dt.timezone(dt.timedelta(hours=2))
        self.assertEqual(format_timestamp(dt.datetime(2025, 3, 1, 14, 0, tzinfo=plus_two)), "2025-03-01T12:00:00.000Z")
        self.assertEqual(format_timestamp("2025-03-01T12:00:00+01:00"), "2025-03-01T12:00:00+01:00")
        with self.assertRaises(TypeError):
            format_timestamp(1740830400)


class RetryTest(unittest.TestCase):
    def test_backoff_doubles_up_to_the_cap_with_jitter_in_its_upper_half(self):
        self.assertEqual([backoff_delay(a, 0.5, 30, lambda: 0.0) for a in range(8)], [0.25, 0.5, 1, 2, 4, 8, 15, 15])
        self.assertAlmostEqual(backoff_delay(3, 0.5, 30, lambda: 0.999999), 4, places=4)
        self.assertEqual(backoff_delay(10_000, 0.5, 30, lambda: 0.0), 15)

    def test_retry_after_is_waited_out_even_when_the_backoff_is_shorter(self):
        limited = ApiError(429, "rate_limited", "slow down", retry_after=7)
        self.assertEqual(retry_delay(limited, 0, 0.5, 30, lambda: 0.0), 7)
        self.assertEqual(retry_delay(ApiError(503, None, "x"), 0, 0.5, 30, lambda: 0.0), 0.25)

    def test_retry_after_in_seconds_or_as_a_date(self):
        self.assertEqual(parse_retry_after("120"), 120)
        now = dt.datetime(2025, 3, 1, 12, 0, 0, tzinfo=dt.timezone.utc)
        self.assertEqual(parse_retry_after("Sat, 01 Mar 2025 12:00:30 GMT", now), 30)
        self.assertEqual(parse_retry_after("Sat, 01 Mar 2025 11:00:00 GMT", now), 0)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after(None))

    def test_what_is_retried(self):
        for status, retried in [
            (400, False),
            (401, False),
            (404, False),
            (409, False),
            (429, True),
            (500, True),
            (501, False),
            (503, True),
        ]:
            self.assertEqual(may_retry(ApiError(status, None, ""), idempotent=True), retried, status)
        self.assertTrue(may_retry(NetworkError("reset"), idempotent=True))

    def test_a_request_that_is_not_idempotent_is_sent_again_only_when_surely_not_applied(self):
        self.assertTrue(may_retry(ApiError(429, None, ""), idempotent=False))
        self.assertFalse(may_retry(ApiError(503, None, ""), idempotent=False))
        self.assertFalse(may_retry(NetworkError("timed out"), idempotent=False))
        self.assertTrue(may_retry(NetworkError("refused", before_send=True), idempotent=False))


class TransportTest(unittest.TestCase):
    def test_host_gets_the_version_prefix_once(self):
        for host in ("http://h:3000", "http://h:3000/", "http://h:3000/v1", "http://h:3000/v1/"):
            self.assertEqual(base_url_of(host), "http://h:3000/v1")
        self.assertEqual(base_url_of("https://h/pi"), "https://h/pi/v1")
        with self.assertRaises(ValueError):
            base_url_of("h:3000")

    def test_path_segments_are_percent_encoded(self):
        self.assertEqual(path_of("users", "a/b c?"), "/users/a%2Fb%20c%3F")

    def test_the_error_body_is_read_and_an_unknown_body_is_kept_short(self):
        err = error_of(
            400,
            {},
            b'{"error":{"code":"invalid_request","message":"m","details":{"field":"name","reason":"required"}}}',
        )
        self.assertEqual(
            (err.status, err.code, err.message, err.details),
            (400, "invalid_request", "m", {"field": "name", "reason": "required"}),
        )
        html = error_of(502, {"Retry-After": "3"}, b"<html>Bad gateway</html>" + b"x" * 500)
        self.assertEqual((html.status, html.code, html.retry_after, html.retriable), (502, None, 3, True))
        self.assertLessEqual(len(html.message), 200)


class IdentifyBodyTest(unittest.TestCase):
    def test_anonymous_id_is_sent_only_when_given(self):
        self.assertEqual(identify_body("u_42", None, None), {"user_id": "u_42"})
        self.assertEqual(
            identify_body("u_42", {"plan": "pro"}, "anon_7"),
            {"user_id": "u_42", "properties": {"plan": "pro"}, "anonymous_id": "anon_7"},
        )


class OptionsAndTrackTest(unittest.TestCase):
    def test_bad_options_are_refused_at_construction(self):
        for options in (
            {"batch_size": 0},
            {"batch_size": 1001},
            {"max_queue_size": 0},
            {"timeout": 0},
            {"on_error": 1},
        ):
            with self.assertRaises(ValueError, msg=str(options)):
                Client(api_key="k", host="http://127.0.0.1:9", flush_at_exit=False, **options)
        with self.assertRaises(ValueError):
            Client(api_key="", flush_at_exit=False)

    def test_an_event_that_cannot_be_json_is_reported_not_raised(self):
        seen = []
        client = Client(
            api_key="k", host="http://127.0.0.1:9", flush_at_exit=False, on_error=lambda e, ev: seen.append((e, ev))
        )
        self.assertIsNone(client.track("u", "e", {"x": object()}))
        self.assertIsNone(client.track("u", "e\ud800"))
        self.assertIsNone(client.track("u", "e", {"blob": "x" * MAX_BODY_BYTES}))
        self.assertEqual([e.code for e, _ in seen], ["invalid_event", "invalid_event", "event_too_large"])
        self.assertTrue(all(isinstance(e, InvalidEventError) for e, _ in seen))
        self.assertEqual(client.failed_count, 3)
        self.assertTrue(client.flush(timeout=1), "nothing was queued")


if __name__ == "__main__":
    unittest.main()


class InstallTest(unittest.TestCase):
    def test_pip_install_leaves_the_source_tree_as_it_was(self):
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with tempfile.TemporaryDirectory() as scratch:
            source = os.path.join(scratch, "python")
            shutil.copytree(here, source, ignore=shutil.ignore_patterns("__pycache__"))
            before = sorted(os.listdir(source))
            target = os.path.join(scratch, "t")
            done = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", target, source],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0 and "No matching distribution found for flit_core" in done.stderr:
                # pip fetches the build backend from a package index; a machine without one cannot build.
                self.skipTest("no package index to fetch the build backend (flit_core) from")
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(sorted(os.listdir(source)), before)
            self.assertTrue(os.path.exists(os.path.join(target, "product_intelligence", "py.typed")))
