"""The bounded event queue and the background thread that empties it in batches.

Invariants:
- ``enqueue`` never blocks on the network and never raises: when the queue is full the OLDEST
  event is dropped and counted (``dropped``).
- Events leave in the order they were tracked, one request at a time; a batch is retried with the
  same body (so the same message ids) until it is delivered or given up.
- Every event tracked ends in exactly one of: delivered, dropped (queue full) or failed (handed to
  ``on_error`` with the reason). Nothing raised in the worker reaches the host application.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
import weakref
from collections import deque
from typing import Callable, Deque, List, NamedTuple, Optional

from ._batching import MAX_BATCH_EVENTS, batch_body, batch_length, rejected_index
from ._transport import Transport
from .errors import ApiError, ProductIntelligenceError

ErrorCallback = Callable[[ProductIntelligenceError, List[dict]], None]


class _Item(NamedTuple):
    event: dict
    encoded: bytes
    queued_at: float


class ShutdownTimeout(ProductIntelligenceError):
    """Events still queued or in flight when ``shutdown`` ran out of time."""


_live: "weakref.WeakSet[Delivery]" = weakref.WeakSet()


def _reset_after_fork() -> None:
    # A lock held by another thread at fork time stays held forever in the child: start afresh.
    for delivery in list(_live):
        delivery._after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


class Delivery:
    def __init__(
        self,
        transport: Transport,
        max_queue_size: int,
        batch_size: int,
        flush_interval: float,
        on_error: Optional[ErrorCallback],
        logger: logging.Logger,
    ):
        self._transport = transport
        self._max_queue_size = max_queue_size
        self._batch_size = min(batch_size, MAX_BATCH_EVENTS)
        self._flush_interval = flush_interval
        self._on_error = on_error
        self._log = logger
        self._init_state()
        _live.add(self)

    def _init_state(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._queue: Deque[_Item] = deque()
        self._in_flight = 0
        self._flush_requested = False
        self._stopping = False
        self._abort = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.dropped = 0
        self.failed = 0
        self.delivered = 0

    def _after_fork(self) -> None:
        # The child gets an empty queue of its own; the parent still delivers what it had.
        self._init_state()

    # --- called by the host application's threads ---

    def enqueue(self, event: dict, encoded: bytes) -> None:
        with self._cond:
            if self._stopping:
                self.dropped += 1
                self._log.warning("product_intelligence: event %s dropped: the client is shut down", event.get("event"))
                return
            if len(self._queue) >= self._max_queue_size:
                self._queue.popleft()
                self.dropped += 1
                if self.dropped == 1 or self.dropped % 1000 == 0:
                    self._log.warning(
                        "product_intelligence: queue full (%d events), oldest dropped; %d dropped so far",
                        self._max_queue_size,
                        self.dropped,
                    )
            self._queue.append(_Item(event, encoded, time.monotonic()))
            self._ensure_worker()
            if len(self._queue) == 1 or len(self._queue) >= self._batch_size:
                self._cond.notify_all()

    def flush(self, timeout: Optional[float] = None) -> bool:
        """True once the queue is empty and nothing is in flight; False if ``timeout`` came first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            if self._thread is threading.current_thread():
                return False  # called from on_error: waiting for ourselves would never end
            if self._queue:
                self._ensure_worker()
            self._flush_requested = True
            self._cond.notify_all()
            while self._queue or self._in_flight:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def shutdown(self, timeout: Optional[float]) -> bool:
        """Flushes, then stops the worker. What is not delivered within ``timeout`` is given up and
        reported to ``on_error`` (``code`` ``shutdown_timeout``)."""
        started = time.monotonic()
        delivered = self.flush(timeout)
        with self._cond:
            self._stopping = True
            thread = self._thread
            if not delivered:
                self._abort.set()
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            # An attempt already on the wire may take up to the request timeout to end.
            spent = time.monotonic() - started
            thread.join(max(0.1, (timeout or 0) - spent) + self._transport.timeout)
        if not delivered:
            self._give_up_queue()
        return delivered

    # --- the worker thread ---

    def _ensure_worker(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="product-intelligence-delivery", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            items = self._next_batch()
            if items is None:
                return
            try:
                self._deliver(items)
            except Exception as err:  # a bug of ours must not stop delivery for good
                self._log.exception("product_intelligence: unexpected error while delivering")
                self._report(ProductIntelligenceError(f"unexpected error: {err!r}", "internal_error"), items)
            finally:
                with self._cond:
                    self._in_flight = 0
                    self._cond.notify_all()

    def _next_batch(self) -> Optional[List[_Item]]:
        """Waits until a batch is due (full, interval passed, flush or shutdown asked); None = stop."""
        with self._cond:
            while True:
                if self._abort.is_set():
                    return None
                if not self._queue:
                    self._flush_requested = False
                    if self._stopping:
                        return None
                    self._cond.wait()
                    continue
                if self._flush_requested or self._stopping or len(self._queue) >= self._batch_size:
                    break
                remaining = self._queue[0].queued_at + self._flush_interval - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            sizes = [len(item.encoded) for item in itertools.islice(self._queue, self._batch_size)]
            count = batch_length(sizes, self._batch_size)
            items = [self._queue.popleft() for _ in range(count)]
            self._in_flight = len(items)
            return items

    def _deliver(self, items: List[_Item]) -> None:
        parts = [items]
        while parts:
            part = parts.pop(0)
            if self._abort.is_set():
                self._report(ShutdownTimeout("not delivered before shutdown timed out", "shutdown_timeout"), part)
                continue
            try:
                self._transport.send(
                    "POST",
                    "/events/batch",
                    body=batch_body(item.encoded for item in part),
                    sleep=lambda seconds: not self._abort.wait(seconds),
                    on_retry=self._log_retry,
                )
                with self._cond:
                    self.delivered += len(part)
            except ApiError as err:
                rejected = rejected_index(err.details.get("field"), len(part)) if err.status == 400 else None
                if rejected is not None:
                    # All or nothing on the service's side: drop the event it names, send the rest again.
                    self._report(err, [part[rejected]])
                    rest = part[:rejected] + part[rejected + 1 :]
                    if rest:
                        parts.insert(0, rest)
                elif err.status == 413 and len(part) > 1:
                    half = len(part) // 2
                    parts[:0] = [part[:half], part[half:]]
                else:
                    self._report(err, part)
            except ProductIntelligenceError as err:
                self._report(err, part)

    def _give_up_queue(self) -> None:
        with self._cond:
            left = list(self._queue)
            self._queue.clear()
            self._cond.notify_all()
        if left:
            self._report(ShutdownTimeout("not delivered before shutdown timed out", "shutdown_timeout"), left)

    def _log_retry(self, err: ProductIntelligenceError, delay: float) -> None:
        self._log.info("product_intelligence: batch not delivered (%s), next try in %.1f s", err, delay)

    def _report(self, err: ProductIntelligenceError, items: List[_Item]) -> None:
        self.report(err, [item.event for item in items])

    def report(self, err: ProductIntelligenceError, events: List[dict]) -> None:
        """Counts ``events`` as failed and hands them to ``on_error``; never raises."""
        with self._cond:
            self.failed += len(events)
        self._log.error("product_intelligence: %d event(s) not delivered: %s", len(events), err)
        if self._on_error is None:
            return
        try:
            self._on_error(err, events)
        except Exception:
            self._log.exception("product_intelligence: on_error raised")
