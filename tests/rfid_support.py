"""Helpers of the RFID tests: a reader service recording what it reports, and a way to wait."""
from __future__ import annotations

import threading
import time
from typing import Callable

from companion.rfid.config import ReaderConfig
from companion.rfid.service import ReaderService

# Quick retries so a replugged reader is reopened within a fraction of a second in tests.
FAST_RETRY = (0.05, 0.2)


# A wait is for a condition, never a measure of time: on a loaded 2-core machine a reader thread may
# be late by seconds, so no condition is given up on before this.
PATIENCE_S = 60.0


def wait_for(predicate: Callable[[], object], timeout: float = 5.0, what: str = "condition") -> object:
    timeout = max(timeout, PATIENCE_S)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Recorder:
    """on_tap / on_removed that remember every call; ``known`` decides what is paired."""

    def __init__(self, known: Callable[[str], bool] = lambda uid: True):
        self.known = known
        self.events: list[tuple[str, int, str]] = []
        self._lock = threading.Lock()

    def on_tap(self, seat: int, uid: str) -> bool:
        with self._lock:
            self.events.append(("tap", seat, uid))
        return self.known(uid)

    def on_removed(self, seat: int, uid: str) -> None:
        with self._lock:
            self.events.append(("removed", seat, uid))

    def taps(self, seat: int | None = None) -> list[str]:
        with self._lock:
            return [u for k, s, u in self.events if k == "tap" and (seat is None or s == seat)]

    def removals(self, seat: int | None = None) -> list[str]:
        with self._lock:
            return [u for k, s, u in self.events if k == "removed" and (seat is None or s == seat)]


def start_service(configs: list[ReaderConfig], recorder: Recorder) -> ReaderService:
    return ReaderService(configs, recorder.on_tap, recorder.on_removed, retry=FAST_RETRY).start()


def reader_stats(service: ReaderService, index: int = 0) -> dict:
    return service.stats()["readers"][index]
