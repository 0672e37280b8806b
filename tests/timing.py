"""Time in the tests: waits on a condition (never on an amount of time) and clocks the test moves.

The suite runs on a loaded 2-core machine, where a thread under test may be late by seconds. So a
test never sleeps and hopes: it waits until what it needs has happened (``wait_for``, which gives
up only after a minute and then says what it waited for), and where a scenario is itself a span
of time ("a card held past the re-arm time") the code's injectable clock is moved by the test
(``ManualClock``), so the span is exact however slow the machine is.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, TypeVar

T = TypeVar("T")

# No condition is given up on before this: it only bounds a test that is going to fail anyway.
PATIENCE_S = 60.0


def wait_for(condition: Callable[[], T], what: str = "the condition", timeout: float = PATIENCE_S,
             every: float = 0.02) -> T:
    """Poll ``condition`` until it is true and return its value; fail saying ``what`` was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(every)


class ManualClock:
    """A monotonic clock that stands still until the test moves it (``advance``). ``reads`` counts
    the calls from threads other than the test's, so a test can wait until the code under test has
    looked at the time again (``wait_for_reads``)."""

    def __init__(self, start: float = 1000.0):
        self._now = start
        self._lock = threading.Lock()
        self.reads = 0

    def __call__(self) -> float:
        with self._lock:
            if threading.current_thread() is not threading.main_thread():
                self.reads += 1
            return self._now

    @property
    def now(self) -> float:
        with self._lock:
            return self._now

    @now.setter
    def now(self, value: float) -> None:   # a test may also set the time outright
        with self._lock:
            self._now = value

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds

    def wait_for_reads(self, count: int, what: str) -> None:
        """Wait until the code under test has read the clock ``count`` more times."""
        with self._lock:
            target = self.reads + count
        wait_for(lambda: self.reads >= target, what)
