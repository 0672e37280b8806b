"""Where something is moving over the table: a hand over a card hides it, it does not take it away.

The tracker takes a card away after half a second of frames without it. A hand that reaches
across the table hides the cards under it for longer than that, and a service dropping frames
sees even fewer of the frames in which the card shows. So the pipeline keeps a ``MotionMap``:
a small copy of each processed frame (one value per ``cell`` x ``cell`` block) compared with the
previous one. A block that changed by more than ``threshold`` grey levels *moved*; a place of the
frame is *busy* while a block near it moved within the last ``hold_s`` seconds. Blocks are small
and the threshold low (sensor noise averages out over 64 pixels; a hand's edge shifting by a
pixel or two does not), so a hand moving slowly over a card keeps it busy too. A card unread
at a busy place is hidden, not absent (the tracker's ``hidden_s`` bounds how long).

A card taken away leaves the mat showing, which stays still once the hand is gone: from then
on its absence counts and it is reported gone half a second later.
"""
from __future__ import annotations

import cv2
import numpy as np


def block_means(gray: np.ndarray, cell: int) -> np.ndarray:
    """A small copy of a frame: one value per ``cell`` x ``cell`` block, the block's mean.

    A frame whose blocks are whole is halved again and again (OpenCV's area resize has a fast
    path for exactly 2x): at 1080p that costs a quarter of one 8x area resize, and each value
    is within a grey level and a half of the exact mean (each halving rounds)."""
    h, w = gray.shape[:2]
    rows, cols = max(h // cell, 1), max(w // cell, 1)
    if h < cell or w < cell:
        return cv2.resize(gray, (cols, rows), interpolation=cv2.INTER_AREA)
    small, step = gray[:rows * cell, :cols * cell], cell
    while step % 2 == 0:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        step //= 2
    return small if step == 1 else cv2.resize(small, (cols, rows), interpolation=cv2.INTER_AREA)


class MotionMap:
    def __init__(self, cell: int = 8, threshold: float = 8.0, hold_s: float = 0.25):
        self.cell = cell
        self.threshold = threshold
        self.hold_s = hold_s
        self._previous: np.ndarray | None = None
        self._moved_at: np.ndarray | None = None   # per block: when it last moved (seconds)
        self.now = 0.0
        self.last_moved = -np.inf  # when any block last moved: the table's last movement
        self.moved = False         # whether any block moved in the latest frame (the settle counts still frames)

    def update(self, gray: np.ndarray, now: float, small: np.ndarray | None = None) -> None:
        """Compare this processed frame with the previous one (``small``: its block means, when
        the decoder already made them at this map's cell size)."""
        if small is None:
            small = block_means(gray, self.cell)
        self.now = now
        if self._previous is None or self._previous.shape != small.shape:
            self._previous = small
            self._moved_at = np.full(small.shape, -np.inf)
            self.moved = True  # nothing to compare with: not a frame that saw the table still
            return
        moved = cv2.absdiff(small, self._previous) > self.threshold
        self._moved_at[moved] = now
        self.moved = bool(moved.any())
        if self.moved:
            self.last_moved = now
        self._previous = small

    def busy(self, frame_xy, radius_px: float) -> bool:
        """Whether something moved within radius_px of a frame point in the last hold_s seconds."""
        if self._moved_at is None:
            return False
        c = self.cell
        x, y = frame_xy
        rows, cols = self._moved_at.shape
        x0, x1 = max(int((x - radius_px) // c), 0), min(int((x + radius_px) // c) + 1, cols)
        y0, y1 = max(int((y - radius_px) // c), 0), min(int((y + radius_px) // c) + 1, rows)
        if x1 <= x0 or y1 <= y0:
            return False
        return bool((self.now - self._moved_at[y0:y1, x0:x1] <= self.hold_s).any())
