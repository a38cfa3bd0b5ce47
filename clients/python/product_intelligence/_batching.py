"""Pure helpers of the event queue: encoding events and cutting batches that the service accepts.

The service takes 1 to 1,000 events per ``POST /v1/events/batch`` in a body of at most 1 MiB, all
or nothing: one invalid event makes the whole request a 400 that names it (``events[7].event``).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import json
import re
import uuid
from typing import Any, Iterable, Optional, Sequence

MAX_BATCH_EVENTS = 1000
MAX_BODY_BYTES = 1_048_576
_ENVELOPE = (b'{"events":[', b"]}")
#: The largest encoded event that fits in a batch of its own.
MAX_EVENT_BYTES = MAX_BODY_BYTES - len(_ENVELOPE[0]) - len(_ENVELOPE[1])

_FIELD_INDEX = re.compile(r"^events\[(\d+)\]")


def format_timestamp(value: Any) -> str:
    """ISO 8601 with milliseconds and a zone; a naive datetime is taken as UTC."""
    if isinstance(value, str):
        return value
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        value = value.astimezone(_dt.timezone.utc)
        return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
    raise TypeError(f"timestamp must be a datetime or an ISO 8601 string, not {type(value).__name__}")


def _json_default(value: Any) -> Any:
    if isinstance(value, _dt.datetime):
        return format_timestamp(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def encode(value: Any) -> bytes:
    """Compact UTF-8 JSON; datetimes, dates, Decimals, UUIDs and sets are converted."""
    return json.dumps(value, default=_json_default, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode(
        "utf-8"
    )


def batch_body(encoded_events: Iterable[bytes]) -> bytes:
    return _ENVELOPE[0] + b",".join(encoded_events) + _ENVELOPE[1]


def batch_length(sizes: Sequence[int], max_events: int, max_bytes: int = MAX_BODY_BYTES) -> int:
    """How many of the leading events (by encoded size) fit in one request: at least one when any
    are given (an event is never larger than MAX_EVENT_BYTES, ``track`` refuses those)."""
    used = len(_ENVELOPE[0]) + len(_ENVELOPE[1])
    count = 0
    for size in sizes[:max_events]:
        extra = size + (1 if count else 0)
        if count and used + extra > max_bytes:
            break
        used += extra
        count += 1
    return count


def rejected_index(field: Optional[str], batch_size: int) -> Optional[int]:
    """The event a batch 400 names (``details.field`` ``events[3].user_id`` → 3), if any."""
    match = _FIELD_INDEX.match(field or "")
    if not match:
        return None
    index = int(match.group(1))
    return index if index < batch_size else None
