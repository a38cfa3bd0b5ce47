"""One error tree for everything the client reports, raised or handed to ``on_error``.

Every error carries ``status``, ``code``, ``message`` and ``details`` (the service's error body
``{"error": {"code", "message", "details"}}`` when there is one) and ``retriable``: whether the
same request may succeed if sent again. Nothing else in the client classifies failures.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional


class ProductIntelligenceError(Exception):
    """Base class of every error of this library."""

    status: Optional[int] = None
    retriable: bool = False

    def __init__(self, message: str, code: Optional[str] = None, details: Optional[Mapping[str, Any]] = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.details: dict[str, Any] = dict(details or {})


class ApiError(ProductIntelligenceError):
    """The service answered with a status that is not 2xx.

    ``code``/``message``/``details`` come from the error body; a body that is not the
    service's (a proxy's HTML page, say) leaves ``code`` as None and puts its first
    characters in ``message``. ``retry_after`` holds the seconds of a ``Retry-After`` header.
    """

    def __init__(
        self,
        status: int,
        code: Optional[str],
        message: str,
        details: Optional[Mapping[str, Any]] = None,
        retry_after: Optional[float] = None,
    ):
        super().__init__(message, code, details)
        self.status = status
        self.retry_after = retry_after
        # 501 never changes by waiting; every other 5xx, and 429, may.
        self.retriable = status == 429 or (status >= 500 and status != 501)

    def __str__(self) -> str:
        return f"{self.status} {self.code or 'error'}: {self.message}"

    def __repr__(self) -> str:
        return f"ApiError({self.status!r}, {self.code!r}, {self.message!r}, {self.details!r})"


class NetworkError(ProductIntelligenceError):
    """No usable answer: connection refused or reset, timeout, DNS failure, truncated body.

    ``before_send`` is True when the request surely never reached the service (the
    connection was refused), so even a non-idempotent request may be sent again.
    """

    retriable = True

    def __init__(self, message: str, cause: Optional[BaseException] = None, before_send: bool = False):
        super().__init__(message, "network_error")
        self.cause = cause
        self.before_send = before_send


class InvalidEventError(ProductIntelligenceError):
    """``track`` could not queue the event (it cannot be turned into JSON, or it is larger
    than a batch may be). Handed to ``on_error``, never raised by ``track``."""
