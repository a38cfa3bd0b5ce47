"""Every HTTP request of the client goes through here: one place that builds URLs, sends the key,
turns answers into Python values or errors, and retries (see ``_retry``)."""

from __future__ import annotations

import http.client
import json
import platform
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Mapping, Optional

from ._batching import encode
from ._retry import may_retry, parse_retry_after, retry_delay
from .errors import ApiError, NetworkError, ProductIntelligenceError
from .version import VERSION

USER_AGENT = f"product-intelligence-python/{VERSION} (Python {platform.python_version()})"


def base_url_of(host: str) -> str:
    """``http://h:3000``, ``http://h:3000/`` and ``http://h:3000/v1`` all mean ``http://h:3000/v1``."""
    parsed = urllib.parse.urlsplit(host.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"host must be an http:// or https:// URL, not {host!r}")
    path = parsed.path.rstrip("/")
    if not path.endswith("/v1"):
        path += "/v1"
    return urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, path, "", ""))


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def path_of(*segments: str) -> str:
    """A path from segments, each one percent-encoded (``/`` included)."""
    return "".join("/" + urllib.parse.quote(str(s), safe="") for s in segments)


class Response:
    def __init__(self, status: int, headers: Mapping[str, str], body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None


def error_of(status: int, headers: Any, body: bytes) -> ApiError:
    """The service's error body, or as much of an unknown body as helps a person."""
    retry_after = parse_retry_after(headers.get("Retry-After")) if headers is not None else None
    try:
        payload = json.loads(body.decode("utf-8"))
        error = payload["error"]
        return ApiError(status, error.get("code"), error.get("message", ""), error.get("details"), retry_after)
    except (ValueError, KeyError, TypeError, AttributeError):
        text = body[:200].decode("utf-8", "replace").strip()
        return ApiError(status, None, text or f"HTTP {status}", None, retry_after)


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float,
        max_retries: int,
        retry_base_delay: float,
        retry_max_delay: float,
    ):
        self.base_url = base_url
        self._api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry_base_delay = retry_base_delay
        self.retry_max_delay = retry_max_delay
        # urllib's default handlers: proxies from the environment, TLS verification on.
        self._opener = urllib.request.build_opener()

    def open(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]] = None,
        body: Optional[bytes] = None,
        accept: str = "application/json",
    ) -> http.client.HTTPResponse:
        """One attempt; the open response on 2xx (the caller reads and closes it)."""
        url = self.base_url + path
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        headers = {"Authorization": f"Bearer {self._api_key}", "Accept": accept, "User-Agent": USER_AGENT}
        if body is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            return self._opener.open(request, timeout=self.timeout)
        except urllib.error.HTTPError as err:
            with err:
                raise error_of(err.code, err.headers, _read(err)) from None
        except urllib.error.URLError as err:
            refused = isinstance(err.reason, ConnectionRefusedError)
            raise NetworkError(f"{method} {path}: {err.reason}", err, before_send=refused) from None
        except (OSError, http.client.HTTPException) as err:
            raise NetworkError(f"{method} {path}: {err!r}", err) from None

    def send_once(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]] = None,
        body: Optional[bytes] = None,
    ) -> Response:
        response = self.open(method, path, query, body)
        with response:
            try:
                data = response.read()
            except (OSError, http.client.HTTPException) as err:
                raise NetworkError(f"{method} {path}: the answer broke off: {err!r}", err) from None
            return Response(response.status, response.headers, data)

    def send(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        idempotent: bool = True,
        sleep: Optional[Callable[[float], bool]] = None,
        max_wait: Optional[float] = None,
        on_retry: Optional[Callable[[ProductIntelligenceError, float], None]] = None,
    ) -> Response:
        """Sends with retries. ``sleep`` returns False to abandon the waits (shutdown); a wait longer
        than ``max_wait`` (a long ``Retry-After`` in a synchronous call) is not made: the error is raised."""
        data = body if body is None or isinstance(body, bytes) else encode(body)
        attempt = 0
        while True:
            try:
                return self.send_once(method, path, query, data)
            except ProductIntelligenceError as err:
                if attempt >= self.max_retries or not may_retry(err, idempotent):
                    raise
                delay = retry_delay(err, attempt, self.retry_base_delay, self.retry_max_delay)
                if max_wait is not None and delay > max_wait:
                    raise
                if on_retry:
                    on_retry(err, delay)
                if not (sleep or _sleep)(delay):
                    raise
                attempt += 1


def _sleep(seconds: float) -> bool:
    time.sleep(seconds)
    return True


def _read(response: Any) -> bytes:
    try:
        return response.read()
    except (OSError, http.client.HTTPException, socket.timeout):
        return b""
