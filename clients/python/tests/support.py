"""What the tests against the running service share: its address and key, a real fault-injecting
HTTP proxy, and waiting on conditions."""

from __future__ import annotations

import datetime as dt
import http.server
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Callable, List, Optional, Tuple, TypeVar

from product_intelligence import Client

T = TypeVar("T")

#: A prefix that makes this run's users, events and features its own in a shared project.
RUN = f"py-{uuid.uuid4().hex[:8]}"


def service() -> Tuple[str, str]:
    base_url = os.environ.get("PI_BASE_URL")
    api_key = os.environ.get("PI_API_KEY")
    if not base_url or not api_key:
        raise RuntimeError(
            "These tests run against the service: set PI_BASE_URL (e.g. http://127.0.0.1:3100/v1) and "
            "PI_API_KEY (an admin key of a project used only by this run)."
        )
    return base_url, api_key


def client(host: Optional[str] = None, **options) -> Client:
    base_url, api_key = service()
    options.setdefault("flush_at_exit", False)
    return Client(api_key=api_key, host=host or base_url, **options)


def wait_for(what: str, probe: Callable[[], Optional[T]], timeout: float = 60.0) -> T:
    """Polls ``probe`` until it returns something truthy; the pause grows from 0.2 s
    to 2 s, since every poll is a request the project's hourly budget counts."""
    deadline = time.monotonic() + timeout
    pause = 0.2
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(pause)
        pause = min(2.0, pause * 1.5)


def export_window() -> dict:
    """Yesterday to tomorrow (UTC): today's events whatever the hour."""
    today = dt.datetime.now(dt.timezone.utc).date()
    return {"start": today - dt.timedelta(days=1), "end": today + dt.timedelta(days=1)}


def stored_rows(reader: Client, event: str, message_ids: List[str]) -> List[dict]:
    wanted = set(message_ids)
    return [row for row in reader.export_events(event_types=[event], **export_window()) if row["message_id"] in wanted]


class Seen:
    def __init__(self, method: str, path: str, body: bytes):
        self.at = time.monotonic()
        self.method = method
        self.path = path
        self.body = body


class FaultProxy:
    """A real HTTP server between a client and the service. ``script`` lists the answers of the first
    requests (status, headers); after it, requests are forwarded. While ``hold`` is set, requests
    wait (the connection stays open) until ``release()``."""

    def __init__(self, upstream_base_url: str, script: Optional[List[Tuple[int, dict]]] = None, hold: bool = False):
        parts = urllib.parse.urlsplit(upstream_base_url)
        self.upstream = f"{parts.scheme}://{parts.netloc}"
        self.script = list(script or [])
        self.seen: List[Seen] = []
        self._gate = threading.Event()
        if not hold:
            self._gate.set()
        self._lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output readable
                pass

            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with proxy._lock:
                    proxy.seen.append(Seen(self.command, self.path, body))
                    scripted = proxy.script.pop(0) if proxy.script else None
                proxy._gate.wait(60)
                if scripted is not None:
                    status, headers = scripted
                    payload = b'{"error":{"code":"scripted","message":"injected by the test proxy","details":{}}}'
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                self._forward(body)

            def _forward(self, body: bytes):
                headers = {
                    k: v for k, v in self.headers.items() if k.lower() in ("authorization", "content-type", "accept")
                }
                request = urllib.request.Request(
                    proxy.upstream + self.path, data=body or None, headers=headers, method=self.command
                )
                try:
                    answer = urllib.request.urlopen(request, timeout=30)
                except urllib.error.HTTPError as err:
                    answer = err
                with answer:
                    data = answer.read()
                    self.send_response(answer.status)
                    for name, value in answer.headers.items():
                        if name.lower() not in ("content-length", "transfer-encoding", "connection", "keep-alive"):
                            self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_DELETE = _handle

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def release(self) -> None:
        self._gate.set()

    def close(self) -> None:
        self._gate.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "FaultProxy":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
