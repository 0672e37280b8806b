"""Whether the table lies still, counted in the camera's frames: what the quick settle reads.

A battle resolves on its own once the cards have come to rest, and the camera is the one that
can tell. A frame *counts as still* when, compared with the frame before it, nothing moved over
the table (the motion map, occlusion.py, saw no block change) and every card the tracker holds
was read at the corners where it lay when the table last moved, within ``tolerance_px``. The
settle waits for ``frames`` such frames in a row (the service's ``--still-frames``, 5: 167 ms
at 30 fps, 333 ms at 15 fps): frames, not seconds, so that a loaded machine that processes
fewer frames waits for as much evidence, never less. What each rule is for:

- *something moved* (a hand, a card laid or lifted) starts the count again: a card being slid
  across the table is never still where it passes, and a hand bringing a second card to a play
  is seen on its way;
- *a card read away from where it lay* starts the count again too: a card pushed so slowly that
  no block changes much from one frame to the next still drifts from its resting corners;
- *a card the tracker holds but this frame did not read* does not count, nor start the count
  again: a card lifted straight back is missing from every frame until the tracker reports it
  gone (about 0.75 s later: occlusion.py), so the table is never settled with it in the play;
  a tag missed for a frame (a decoder's flicker) only delays the settle by that frame;
- *a card read that did not lie there* (a new card, or one read again after a miss when the
  count started) starts the count again from its corners;
- *a card the tracker takes away* starts the count again: the table changed, whether or not the
  camera saw the hand that did it.

The count is kept per frame processed: ``update`` once a frame, after the tracker.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

STILL_FRAMES = 5          # frames in a row the settle waits for (the service's --still-frames)
TOLERANCE_PX = 4.0        # a still tag's corners, read again, differ by up to 3 px (the demo's table, 60 s)

Reading = tuple[str, Any]   # a card key and its tag's four corners (x, y) in frame pixels

# Plain Python, no numpy: the command line reads STILL_FRAMES for its --still-frames default
# without loading the scanning stack (a frame has a few tags, each four corners).


class Stillness:
    """The number of consecutive frames in which the table lay still (see the module docstring)."""

    def __init__(self, tolerance_px: float = TOLERANCE_PX):
        self.tolerance_px = tolerance_px
        self.frames = 0
        self._resting: dict[str, list[list[float]]] = {}  # card key -> corners where each copy lies
        self._held: Counter[str] = Counter()               # the cards the tracker held a frame ago

    def update(self, moved: bool, readings: list[Reading], held: Counter[str]) -> int:
        """One processed frame: did anything move over the table, the cards read in it, and how
        many cards of each key the tracker holds on the table. Returns the count so far."""
        taken = any(held[key] < count for key, count in self._held.items())
        self._held = Counter(held)
        if moved or taken or not self._all_at_rest(readings):
            self.frames = 0
            self._resting = {}
            for key, corners in readings:
                self._resting.setdefault(key, []).append(flat(corners))
            return self.frames
        read = Counter(key for key, _ in readings)
        if all(read[key] >= count for key, count in held.items()):
            self.frames += 1
        return self.frames

    def reset(self) -> None:
        """Start again (a new game laid out, the camera back after an outage)."""
        self.frames = 0
        self._resting = {}
        self._held = Counter()

    def _all_at_rest(self, readings: list[Reading]) -> bool:
        """Every card read lies where a card of its key lay when the count started."""
        unclaimed = {key: list(places) for key, places in self._resting.items()}
        for key, corners in readings:
            places = unclaimed.get(key, [])
            here = flat(corners)
            near = [i for i, place in enumerate(places)
                    if max(abs(a - b) for a, b in zip(place, here)) <= self.tolerance_px]
            if not near:
                return False
            places.pop(near[0])
        return True


def flat(corners: Sequence[Sequence[float]]) -> list[float]:
    """Four corners as eight numbers: x0, y0, x1, y1..."""
    return [float(v) for point in corners for v in point]
