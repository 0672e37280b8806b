"""ReaderService: every configured reader running in its own thread, each mapped to seats.

    service = ReaderService(configs, on_tap=bridge.on_tap, on_removed=bridge.on_removed)
    service.start()
    ...
    service.stats()   # JSON for the dashboard's devices panel
    service.stop()

``on_tap(seat, uid_hex)`` is called once per tap (a held card is one tap), ``on_removed(seat,
uid_hex)`` when the card leaves (for readers that can tell). Both are called from the reader's
thread. ``on_tap`` may return False to say "not played" (an unpaired UID): the service then
lists the UID under that reader's ``unknown_uids`` so the dashboard can offer to pair it.
An exception in a callback is recorded as the reader's last error and does not stop the reader.
"""
from __future__ import annotations

import collections
import threading
import time
from typing import Any, Callable

from .config import ReaderConfig, check_configs
from .presence import ReaderEvent
from .runner import Opener, ReaderRunner, open_serial

OnTap = Callable[[int, str], "bool | None"]
OnRemoved = Callable[[int, str], None]


class ReaderService:
    def __init__(self, configs: list[ReaderConfig], on_tap: OnTap, on_removed: OnRemoved,
                 opener: Opener = open_serial, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time, retry: tuple[float, float] | None = None):
        self.configs = check_configs(list(configs))
        self.on_tap = on_tap
        self.on_removed = on_removed
        self.wall_clock = wall_clock
        self.recent: collections.deque[dict[str, Any]] = collections.deque(maxlen=50)
        self._lock = threading.Lock()
        kwargs: dict[str, Any] = {"opener": opener, "clock": clock}
        if retry is not None:
            kwargs["retry"] = retry
        self.runners = [ReaderRunner(c, self._handler(i), **kwargs) for i, c in enumerate(self.configs)]

    def _handler(self, index: int) -> Callable[[ReaderEvent], None]:
        return lambda event: self._handle(self.runners[index], event)

    def _handle(self, runner: ReaderRunner, event: ReaderEvent) -> None:
        played: bool | None = None
        try:
            if event.kind == "tap":
                played = self.on_tap(event.seat, event.uid) is not False
                if not played:
                    runner.note_unknown(event.seat, event.uid, self.wall_clock())
            else:
                self.on_removed(event.seat, event.uid)
        except Exception as exc:  # a broken callback must not kill the reader's thread
            runner.last_error = f"handling {event.kind} of {event.uid} at seat {event.seat} failed: {exc!r}"
        with self._lock:
            self.recent.append({"time": self.wall_clock(), "reader": runner.config.label, "seat": event.seat,
                                "kind": event.kind, "uid": event.uid, "played": played})

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> "ReaderService":
        for runner in self.runners:
            runner.start()
        return self

    def stop(self) -> None:
        for runner in self.runners:
            runner.stop()

    def __enter__(self) -> "ReaderService":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the dashboard --------------------------------------------------------------------------
    def forget_unknown(self, uid: str) -> None:
        """The UID was just paired: stop offering it."""
        for runner in self.runners:
            runner.forget_unknown(uid.upper())

    def present(self) -> dict[int, str | None]:
        seats: dict[int, str | None] = {}
        for runner in self.runners:
            seats.update(runner.driver.present())
        return dict(sorted(seats.items()))

    def stats(self) -> dict[str, Any]:
        with self._lock:
            recent = list(self.recent)
        return {"readers": [runner.stats() for runner in self.runners],
                "seats": {str(seat): uid for seat, uid in self.present().items()},
                "recent": recent}
