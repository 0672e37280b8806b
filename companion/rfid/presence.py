"""What a seat's reader sees, turned into taps and removals.

Readers report sightings, not taps: an RDM6300 repeats a held card's frame about ten times a
second, a PN532 poll finds the same card every time. ``Presence`` holds the card on one seat's
reader so that a card held on it is one tap, not fifty, and says when it left:

- ``timeout``: seconds without a sighting after which the card is gone. None when the reader
  reports removals itself (our board) or cannot see them at all (the ID-12LA sends a card once);
- ``rearm``: for a reader that cannot see removals, a sighting of the same card after this many
  seconds without one is a new tap (None: never, the card stays until the reader says it left);
- a different card replaces the first at once (removed, then tap);
- ``pause``/``resume`` around an unplugged reader: nothing expires while the reader cannot see,
  and after it returns the card has RESUME_GRACE seconds (or ``timeout``, if longer) to be seen
  again: a reader that has just been powered up takes a moment to read. So a card that stayed on
  a replugged reader is not tapped twice, and one taken away meanwhile is reported removed.
"""
from __future__ import annotations

from dataclasses import dataclass

RESUME_GRACE = 1.0


@dataclass(frozen=True)
class ReaderEvent:
    kind: str  # "tap" | "removed"
    seat: int
    uid: str   # upper-case hex, no separators: "04A1B2C3D4E5F6"


class Presence:
    def __init__(self, seat: int, timeout: float | None, rearm: float | None = None):
        self.seat = seat
        self.timeout = timeout
        self.rearm = rearm
        self.uid: str | None = None
        self.last_seen = 0.0
        self.paused = False

    def seen(self, uid: str, now: float) -> list[ReaderEvent]:
        if uid == self.uid and (self.timeout is not None or self.rearm is None
                                or now - self.last_seen < self.rearm):
            self.last_seen = now
            return []
        events = self.gone() if self.timeout is not None else []
        self.uid, self.last_seen = uid, now
        return events + [ReaderEvent("tap", self.seat, uid)]

    def gone(self, uid: str | None = None) -> list[ReaderEvent]:
        """The reader says the card left (uid: only if it is that card)."""
        if self.uid is None or (uid is not None and uid != self.uid):
            return []
        event = ReaderEvent("removed", self.seat, self.uid)
        self.uid = None
        return [event]

    def expire(self, now: float) -> list[ReaderEvent]:
        if self.paused or self.timeout is None or self.uid is None:
            return []
        if now - self.last_seen >= self.timeout:
            return self.gone()
        return []

    def pause(self) -> None:
        self.paused = True

    def resume(self, now: float) -> None:
        self.paused = False
        grace = max(RESUME_GRACE, self.timeout or 0.0)
        # expire() compares with timeout: a last sighting "in the future" gives the grace
        self.last_seen = now + grace - (self.timeout or 0.0)
