"""When to send a failed request again, and after how long (pure; the sleeping is the caller's)."""

from __future__ import annotations

import datetime as _dt
import email.utils
import random
from typing import Callable, Optional

from .errors import ApiError, NetworkError, ProductIntelligenceError


def backoff_delay(attempt: int, base: float, cap: float, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with jitter: ``min(cap, base * 2**attempt)`` scaled by a random factor in
    [0.5, 1), so clients that failed together do not come back together."""
    ceiling = min(cap, base * (2 ** min(attempt, 32)))
    return ceiling * (0.5 + rand() / 2)


def parse_retry_after(value: Optional[str], now: Optional[_dt.datetime] = None) -> Optional[float]:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    now = now or _dt.datetime.now(_dt.timezone.utc)
    return max(0.0, (when - now).total_seconds())


def may_retry(error: ProductIntelligenceError, idempotent: bool) -> bool:
    """A request that is not idempotent (creating a job, a cohort, a webhook) is sent again only when
    the service surely did not apply it: a 429 is refused before the handler, a refused connection
    never arrived."""
    if not error.retriable:
        return False
    if idempotent:
        return True
    if isinstance(error, ApiError):
        return error.status == 429
    return isinstance(error, NetworkError) and error.before_send


def retry_delay(
    error: ProductIntelligenceError,
    attempt: int,
    base: float,
    cap: float,
    rand: Callable[[], float] = random.random,
) -> float:
    """The wait before attempt ``attempt + 1``: the backoff, or longer when the service said so."""
    delay = backoff_delay(attempt, base, cap, rand)
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        delay = max(delay, retry_after)
    return delay
