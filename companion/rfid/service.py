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
``attach_readers`` (below) wires all this into the running companion.
An exception in a callback does not stop the reader: the whole error goes to the journal, and the
reader's last error (shown on the public Devices panel) says only that a tap at a seat failed, since
the UID and the exception's text may name a hidden card.
"""
from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Any, Callable

from companion.rfid.config import ReaderConfig, check_configs
from companion.rfid.presence import ReaderEvent
from companion.rfid.runner import Opener, ReaderRunner, open_serial

log = logging.getLogger(__name__)

OnTap = Callable[[int, str], "bool | None"]
OnRemoved = Callable[[int, str], None]


class ReaderService:
    def __init__(self, configs: list[ReaderConfig], on_tap: OnTap, on_removed: OnRemoved,
                 opener: Opener = open_serial, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time, retry: tuple[float, float] | None = None,
                 bridge: Any = None):
        self.configs = check_configs(list(configs))
        self.on_tap = on_tap
        self.on_removed = on_removed
        self.wall_clock = wall_clock
        self.recent: collections.deque[dict[str, Any]] = collections.deque(maxlen=50)
        self.bridge = bridge  # an RfidBridge: its unpaired UIDs and refusals go into stats()
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
                played = self.on_tap(event.seat, event.uid)
                if played is False:
                    runner.note_unknown(event.seat, event.uid, self.wall_clock())
            else:
                self.on_removed(event.seat, event.uid)
        except Exception as exc:  # a broken callback must not kill the reader's thread
            log.exception("handling %s of %s at seat %s failed", event.kind, event.uid, event.seat)
            runner.last_error = (f"a card's {event.kind} at seat {event.seat} could not be handled "
                                 f"({type(exc).__name__}; the whole error is in the journal)")
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
        if self.bridge is not None:  # a UID paired since it was tapped is no longer offered
            for runner in self.runners:
                for uid in [u for u in runner.unknown if self.bridge.lookup(u) is not None]:
                    runner.forget_unknown(uid)
        stats = {"readers": [runner.stats() for runner in self.runners],
                 "seats": {str(seat): uid for seat, uid in self.present().items()},
                 "recent": recent}
        if self.bridge is not None:
            stats.update(unpaired=self.bridge.unknown(), refusals=list(self.bridge.refusals),
                         pairing_errors=list(self.bridge.pairing_errors), on_readers=self.bridge.on_reader())
        return stats


def attach_readers(service: Any, configs: list[ReaderConfig], pairing: Any, hidden: bool = False,
                   **kwargs: Any) -> ReaderService:
    """Wire readers into the running companion (companion/service.py's Service):

    - a tap of a paired UID is played in the current game (``service.table_input``); the lookup
      is limited to the game in play, so a tag paired with another game's card is not played;
    - while a card scanned for pairing waits for its tag (``pairing.pending()``), the next tap
      pairs it instead of being played;
    - unpaired UIDs are kept in ``service.unpaired_uids`` for the dashboard's offer to pair.

    Sets ``service.readers`` and starts the readers; ``service.stop()`` stops them.
    """
    from companion.rfid.bridge import RfidBridge

    def lookup(uid: str):
        session = service.session
        game = session.derived.start["game"] if session is not None else None
        return pairing.lookup(uid, game) if game else None

    def intercept(seat: int, uid: str) -> bool:
        if pairing.pending() is None:
            return False
        try:
            pairing.tap(uid, reader=f"reader:{seat}")
            bridge.forget(uid)
            readers.forget_unknown(uid)
        except ValueError as exc:  # card_tags.pairing.PairingError: the reason is shown
            bridge.pairing_errors.append({"seat": seat, "uid": uid, "error": str(exc)})
        return True

    def submit(kind: str, data: dict[str, Any], source: str):
        return service.table_input(kind, data, source)

    bridge = RfidBridge(lookup, submit, hidden=hidden, intercept=intercept)

    def on_tap(seat: int, uid: str) -> bool | None:
        played = bridge.on_tap(seat, uid)
        service.unpaired_uids[:] = bridge.unknown()  # new ones in, ones paired since out
        return played

    readers = ReaderService(configs, on_tap, bridge.on_removed, bridge=bridge, **kwargs)
    service.readers = readers
    return readers.start()
