"""Helpers of the RFID tests: a reader service recording what it reports, and waits on a reader."""
from __future__ import annotations

import threading
from typing import Callable

from companion.rfid.config import ReaderConfig
from companion.rfid.service import ReaderService
from tests.timing import wait_for

# Quick retries so a replugged reader is reopened within a fraction of a second in tests.
FAST_RETRY = (0.05, 0.2)


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


def start_service(configs: list[ReaderConfig], recorder: Recorder, **options) -> ReaderService:
    """The readers running, reporting to ``recorder``; ``options`` go to ReaderService (a clock)."""
    return ReaderService(configs, recorder.on_tap, recorder.on_removed, retry=FAST_RETRY, **options).start()


def reader_stats(service: ReaderService, index: int = 0) -> dict:
    return service.stats()["readers"][index]


def next_heartbeat(service: ReaderService, count: int = 1) -> None:
    """Wait until the board has sent ``count`` more heartbeats (it polls ten times between two)."""
    seen = reader_stats(service)["heartbeats"]
    wait_for(lambda: reader_stats(service)["heartbeats"] >= seen + count, f"{count} more heartbeat(s)")
