"""The client: a background queue for events, synchronous calls for users and reads."""

from __future__ import annotations

import atexit
import datetime as _dt
import logging
import uuid
from typing import Any, Mapping, Optional, Union

from ._batching import MAX_BATCH_EVENTS, MAX_EVENT_BYTES, encode, format_timestamp
from ._delivery import Delivery, ErrorCallback
from ._reads import ReadHelpers
from ._transport import Transport, base_url_of, path_of
from .errors import InvalidEventError
from .types import User, UserDeleted

DEFAULT_HOST = "http://127.0.0.1:3000"


class Client(ReadHelpers):
    """A client of one project (the API key's).

    Events go through a bounded queue that a background thread sends in batches; ``track`` never
    blocks on the network and never raises. ``identify``, ``update_user``, ``delete_user`` and the
    read helpers are synchronous and raise ``ApiError`` or ``NetworkError``.

    Options (see README.md for the delivery guarantees):

    - ``host``: the service's address, ``http://host:port`` (``/v1`` is added when missing).
    - ``timeout``: seconds for one HTTP attempt (connect and each read), default 10.
    - ``max_queue_size``: events held at most, default 10,000; when full the oldest is dropped and
      counted in ``dropped_count``. Keep it well above ``batch_size``.
    - ``batch_size``: events per request, 1 to 1,000, default 500 (requests are also cut at 1 MiB).
    - ``flush_interval``: seconds an event may wait for its batch to fill, default 10. The service
      counts requests per project and hour (1,000 on the Standard tier): a steady trickle of
      events costs at most 3,600 / flush_interval requests an hour.
    - ``max_retries``: retries of a failed request (network error, 5xx, 429), default 10.
    - ``retry_base_delay``/``retry_max_delay``: the backoff, 0.5 s doubling up to 30 s, with jitter;
      a ``Retry-After`` is always waited out.
    - ``on_error``: ``on_error(error, events)``, called from the delivery thread with the events
      that were not delivered and why (a ``ProductIntelligenceError``). Exceptions it raises are
      logged and ignored.
    - ``logger``: a ``logging.Logger``, default ``logging.getLogger("product_intelligence")``.
    - ``flush_at_exit``: flush the queue when the interpreter exits (atexit), default True, waiting
      at most ``shutdown_timeout`` seconds (default 10).
    """

    def __init__(
        self,
        api_key: str,
        host: str = DEFAULT_HOST,
        *,
        timeout: float = 10.0,
        max_queue_size: int = 10_000,
        batch_size: int = 500,
        flush_interval: float = 10.0,
        max_retries: int = 10,
        retry_base_delay: float = 0.5,
        retry_max_delay: float = 30.0,
        on_error: Optional[ErrorCallback] = None,
        logger: Optional[logging.Logger] = None,
        flush_at_exit: bool = True,
        shutdown_timeout: float = 10.0,
    ):
        _check_options(
            api_key=api_key,
            timeout=timeout,
            max_queue_size=max_queue_size,
            batch_size=batch_size,
            flush_interval=flush_interval,
            max_retries=max_retries,
            retry_base_delay=retry_base_delay,
            retry_max_delay=retry_max_delay,
            on_error=on_error,
        )
        self._log = logger or logging.getLogger("product_intelligence")
        self._transport = Transport(base_url_of(host), api_key, timeout, max_retries, retry_base_delay, retry_max_delay)
        self._delivery = Delivery(self._transport, max_queue_size, batch_size, flush_interval, on_error, self._log)
        self._on_error = on_error
        self._shutdown_timeout = shutdown_timeout
        self._closed = False
        if flush_at_exit:
            atexit.register(self._at_exit)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def dropped_count(self) -> int:
        """Events dropped because the queue was full (the oldest go first), or tracked after shutdown."""
        return self._delivery.dropped

    @property
    def failed_count(self) -> int:
        """Events given up and handed to ``on_error`` (refused by the service, retries exhausted,
        shutdown timed out, or not encodable)."""
        return self._delivery.failed

    @property
    def delivered_count(self) -> int:
        """Events the service acknowledged (202: durably stored in its log)."""
        return self._delivery.delivered

    # --- events ---

    def track(
        self,
        user_id: str,
        event: str,
        properties: Optional[Mapping[str, Any]] = None,
        timestamp: Union[_dt.datetime, str, None] = None,
        message_id: Optional[str] = None,
    ) -> Optional[str]:
        """Queues one event and returns its ``message_id`` (a new UUID unless given), or None when the
        event cannot be sent at all (reported to ``on_error``). ``timestamp`` defaults to now, so an
        event delivered late keeps the time it happened; a naive datetime is taken as UTC."""
        message_id = message_id if message_id is not None else str(uuid.uuid4())
        payload: dict = {"user_id": user_id, "event": event, "message_id": message_id}
        if properties is not None:
            payload["properties"] = properties
        try:
            payload["timestamp"] = format_timestamp(
                timestamp if timestamp is not None else _dt.datetime.now(_dt.timezone.utc)
            )
            encoded = encode(payload)
        except (TypeError, ValueError) as err:
            self._refuse(InvalidEventError(f"the event cannot be sent as JSON: {err}", "invalid_event"), payload)
            return None
        if len(encoded) > MAX_EVENT_BYTES:
            message = f"the event is {len(encoded)} bytes of JSON; a request may hold {MAX_EVENT_BYTES}"
            self._refuse(InvalidEventError(message, "event_too_large"), payload)
            return None
        self._delivery.enqueue(payload, encoded)
        return message_id

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Blocks until every queued event is delivered or given up; False if ``timeout`` (seconds)
        passed first."""
        return self._delivery.flush(timeout)

    def shutdown(self, timeout: Optional[float] = None) -> bool:
        """Flushes (at most ``timeout`` seconds, default ``shutdown_timeout``) and stops the delivery
        thread. Events tracked afterwards are dropped. True when everything was delivered."""
        atexit.unregister(self._at_exit)  # a client that is shut down is not kept alive for exit
        return self._close(timeout)

    def _close(self, timeout: Optional[float] = None) -> bool:
        if self._closed:
            return True
        self._closed = True
        return self._delivery.shutdown(self._shutdown_timeout if timeout is None else timeout)

    def _at_exit(self) -> None:
        # Not shutdown(): unregistering the handler that is running is not safe on every Python.
        try:
            self._close()
        except Exception:  # never turn a clean exit into a traceback
            self._log.exception("product_intelligence: flush at exit failed")

    def _refuse(self, err: InvalidEventError, payload: dict) -> None:
        self._delivery.report(err, [payload])

    # --- users (synchronous) ---

    def identify(
        self, user_id: str, properties: Optional[Mapping[str, Any]] = None, *, anonymous_id: Optional[str] = None
    ) -> User:
        """``POST /users/identify``: creates the user or merges ``properties`` into it (a key set to
        None is removed). Returns the user as stored.

        ``anonymous_id``: the id the person's events were sent under before sign-in; they become the
        user's and count as one person. An anonymous id links to one user only: linking it to another
        raises ``ApiError`` 409 ``conflict`` with ``details["reason"] == "linked_to_another_user"``."""
        body = identify_body(user_id, properties, anonymous_id)
        return self._write("POST", "/users/identify", body)  # type: ignore[no-any-return]

    def update_user(self, user_id: str, properties: Mapping[str, Any]) -> User:
        """``PATCH /users/{id}``: merges ``properties`` into a known user (404 if unknown)."""
        return self._write("PATCH", path_of("users", user_id), {"properties": properties})  # type: ignore[no-any-return]

    def delete_user(self, user_id: str) -> UserDeleted:
        """``DELETE /users/{id}``: erases the user's data, including events already in flight."""
        return self._write("DELETE", path_of("users", user_id))  # type: ignore[no-any-return]

    def get_user(self, user_id: str) -> User:
        return self._get(path_of("users", user_id))  # type: ignore[no-any-return]


def identify_body(user_id: str, properties: Optional[Mapping[str, Any]], anonymous_id: Optional[str]) -> dict:
    """The body of ``POST /users/identify``; ``properties`` and ``anonymous_id`` only when given."""
    body: dict = {"user_id": user_id}
    if properties is not None:
        body["properties"] = properties
    if anonymous_id is not None:
        body["anonymous_id"] = anonymous_id
    return body


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: What each option must be: (rule, check(value, all options)).
_OPTION_RULES = {
    "api_key": ("is required", lambda v, _: isinstance(v, str) and v != ""),
    "timeout": ("must be positive", lambda v, _: _number(v) and v > 0),
    "max_queue_size": ("must be an integer >= 1", lambda v, _: _whole(v) and v >= 1),
    "batch_size": (
        f"must be an integer from 1 to {MAX_BATCH_EVENTS}",
        lambda v, _: _whole(v) and 1 <= v <= MAX_BATCH_EVENTS,
    ),
    "flush_interval": ("must not be negative", lambda v, _: _number(v) and v >= 0),
    "max_retries": ("must be an integer >= 0", lambda v, _: _whole(v) and v >= 0),
    "retry_base_delay": (
        "must be between 0 and retry_max_delay",
        lambda v, o: _number(v) and _number(o["retry_max_delay"]) and 0 <= v <= o["retry_max_delay"],
    ),
    "on_error": ("must be callable", lambda v, _: v is None or callable(v)),
}


def _check_options(**options: Any) -> None:
    """Every broken rule at once, in one ValueError."""
    problems = [f"{name} {rule}" for name, (rule, ok) in _OPTION_RULES.items() if not ok(options[name], options)]
    if problems:
        raise ValueError("; ".join(problems))
