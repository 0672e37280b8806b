"""From a seat's tap to a game event.

    bridge = RfidBridge(lookup=pairing.lookup, submit=session.submit)
    service = ReaderService(configs, bridge.on_tap, bridge.on_removed)

``lookup(uid_hex) -> CardRef | None`` is the pairing store (card_tags/pairing.py). A tap of a
paired UID at seat N becomes

    submit("card_seen", {"zone": "reader:N", "card": ref.key, "uid": uid}, "rfid")

and its removal ``card_gone`` with the same data. A UID that is not paired is never played: it
is recorded (``unknown()``) for the dashboard to show with an offer to pair it, and ``on_tap``
returns False so the reader service lists it too.

``intercept(seat, uid) -> bool``, if given, sees every tap first and may take it (return True):
the pairing flow does, while a card scanned for pairing waits for its tag.

``hidden=True`` adds ``"hidden": true`` to the events, so the public history leaves out which
card it was (for games whose taps are secret until revealed; the ruleset's views decide the rest).
"""
from __future__ import annotations

import collections
import threading
import time
from typing import Any, Callable

from card_tags.payload import CardRef

Lookup = Callable[[str], "CardRef | None"]
Submit = Callable[[str, dict[str, Any], str], Any]
Intercept = Callable[[int, str], bool]


class RfidBridge:
    def __init__(self, lookup: Lookup, submit: Submit, hidden: bool = False,
                 clock: Callable[[], float] = time.time, intercept: Intercept | None = None):
        self.lookup = lookup
        self.submit = submit
        self.intercept = intercept
        self.hidden = hidden
        self.clock = clock
        self._played: dict[int, tuple[str, str]] = {}     # seat -> (uid, card key) on its reader now
        self._unknown: dict[str, dict[str, Any]] = {}
        self.refusals: collections.deque[dict[str, Any]] = collections.deque(maxlen=20)
        self.pairing_errors: collections.deque[dict[str, Any]] = collections.deque(maxlen=20)
        self._lock = threading.Lock()

    def _data(self, seat: int, key: str, uid: str) -> dict[str, Any]:
        data: dict[str, Any] = {"zone": f"reader:{seat}", "card": key, "uid": uid}
        if self.hidden:
            data["hidden"] = True
        return data

    def on_tap(self, seat: int, uid: str) -> bool | None:
        """True: played; False: not paired (recorded); None: taken by ``intercept``."""
        uid = uid.upper()
        if self.intercept is not None and self.intercept(seat, uid):
            return None
        ref = self.lookup(uid)
        if ref is None:
            with self._lock:
                entry = self._unknown.setdefault(uid, {"uid": uid, "seat": seat, "count": 0,
                                                       "first_seen": self.clock()})
                entry.update(seat=seat, last_seen=self.clock(), count=entry["count"] + 1)
            return False
        with self._lock:
            self._played[seat] = (uid, ref.key)
        self._record(self.submit("card_seen", self._data(seat, ref.key, uid), "rfid"), seat, ref.key)
        return True

    def on_removed(self, seat: int, uid: str) -> None:
        uid = uid.upper()
        with self._lock:
            played = self._played.get(seat)
            if played is None or played[0] != uid:
                return  # never played (unpaired): nothing to take back
            del self._played[seat]
        self._record(self.submit("card_gone", self._data(seat, played[1], uid), "rfid"), seat, played[1])

    def _record(self, result: Any, seat: int, key: str) -> None:
        """Keep the referee's refusals (a card played out of turn...) for the dashboard."""
        entry = getattr(result, "entry", None)
        if entry is not None and getattr(entry, "status", "applied") == "refused":
            self.refusals.append({"seat": seat, "card": key, "reason": entry.reason, "time": self.clock()})

    def unknown(self) -> list[dict[str, Any]]:
        """UIDs tapped but not paired, oldest first: the dashboard offers to pair each. A UID
        paired since (by whatever means) drops out of the list by itself."""
        with self._lock:
            entries = [dict(e) for e in self._unknown.values()]
        still = [e for e in entries if self.lookup(e["uid"]) is None]
        if len(still) != len(entries):
            with self._lock:
                for e in entries:
                    if e not in still:
                        self._unknown.pop(e["uid"], None)
        return sorted(still, key=lambda e: e["first_seen"])

    def forget(self, uid: str) -> None:
        """Called once the UID has been paired."""
        with self._lock:
            self._unknown.pop(uid.upper(), None)

    def on_reader(self) -> dict[int, str]:
        """seat -> card key currently lying on that seat's reader (played)."""
        with self._lock:
            return {seat: key for seat, (_, key) in self._played.items()}
