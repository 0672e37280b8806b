"""Decoding as a pipeline: decode only what changed, look again where a code was nearly read.

A camera over a table mostly sees the same picture: cards lie still for seconds while a hand
moves somewhere. ``IncrementalDecoder`` keeps the codes it already read and, each frame:

1. compares a small copy of the frame (one value per ``cell`` x ``cell`` block) with the copy
   taken when each block was last decoded; blocks that changed by more than ``threshold``
   grey levels are *dirty* (noise averages out over a block; a card, a hand or a shadow does not);
2. grows the dirty blocks by about half a tag, adds the whole box of every known or recently
   lost tag they touch, merges overlapping boxes, and decodes only those crops — or the whole
   frame when most of it changed (the camera moved, the light changed, the first frame);
3. for each code the decoder *located* but could not read (zxing-cpp reports those), crops it,
   upscales it 2x and tries again with a second binariser: small or soft tags often read then;
4. keeps the work per frame bounded: at most ``max_regions`` crops and ``max_retries``
   second looks; what is left stays dirty and is done next frame, oldest first;
5. once every ``full_every`` frames, decodes the whole frame anyway, so nothing missed stays
   missed (a tag that failed to read and then did not change).

Known codes whose boxes were not touched are carried over unchanged: that is what makes a
steady table cost about a millisecond a frame.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .decoders import Detection, ZxingDecoder


@dataclass
class DecodeStats:
    frames: int = 0
    full_decodes: int = 0
    regions: int = 0
    retries: int = 0
    retry_reads: int = 0
    carried: int = 0
    deferred: int = 0
    last_dirty_fraction: float = 0.0

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class _Known:
    detection: Detection
    box: tuple[int, int, int, int]   # x0, y0, x1, y1 in frame pixels, with margin
    lost_at: int | None = None       # frame number when it stopped being read (kept a while)


@dataclass
class IncrementalDecoder:
    decoder: object
    cell: int = 8
    threshold: int = 12
    full_every: int = 30
    full_fraction: float = 0.45
    max_regions: int = 12
    max_retries: int = 6
    keep_lost_frames: int = 60
    stats: DecodeStats = field(default_factory=DecodeStats)

    def __post_init__(self):
        self._reference: np.ndarray | None = None
        self._known: list[_Known] = []
        self._lost: list[_Known] = []
        self._frame = 0
        self._misses = 0
        self.can_retry = isinstance(self.decoder, ZxingDecoder)

    @property
    def name(self) -> str:
        return f"{self.decoder.name}+pipeline"

    def reset(self) -> None:
        self._reference = None
        self._known.clear()
        self._lost.clear()

    def decode(self, gray: np.ndarray) -> list[Detection]:
        """Every code believed in view in this frame (read now or carried over unchanged)."""
        self._frame += 1
        self.stats.frames += 1
        small = self._small(gray)
        if (self._reference is None or self._reference.shape != small.shape
                or self._frame % self.full_every == 0):
            return self._decode_full(gray, small)
        dirty = (cv2.absdiff(small, self._reference) > self.threshold).astype(np.uint8)
        fraction = float(np.count_nonzero(dirty)) / dirty.size
        self.stats.last_dirty_fraction = fraction
        if fraction == 0.0:
            self.stats.carried += len(self._known)
            return [k.detection for k in self._known]
        if fraction > self.full_fraction:
            return self._decode_full(gray, small)
        return self._decode_regions(gray, small, dirty)

    # --- the two ways of decoding ---------------------------------------------------------------

    def _decode_full(self, gray: np.ndarray, small: np.ndarray) -> list[Detection]:
        self.stats.full_decodes += 1
        found = self._read(gray, 0, 0)
        self._reference = small
        self._remember(found, replaced=list(self._known))
        return [k.detection for k in self._known]

    def _decode_regions(self, gray: np.ndarray, small: np.ndarray, dirty: np.ndarray) -> list[Detection]:
        h, w = gray.shape[:2]
        boxes = self._dirty_boxes(dirty, w, h)
        if len(boxes) > self.max_regions:
            self.stats.deferred += len(boxes) - self.max_regions
            boxes = sorted(boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), reverse=True)[:self.max_regions]
        if sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) > self.full_fraction * w * h:
            return self._decode_full(gray, small)
        found: list[Detection] = []
        for x0, y0, x1, y1 in boxes:
            self.stats.regions += 1
            found += self._read(gray[y0:y1, x0:x1], x0, y0)
            c = self.cell
            self._reference[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)] = small[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)]
        replaced = [k for k in self._known if any(_inside(k.detection.center, b) for b in boxes)]
        self._remember(_unique(found), replaced)
        self.stats.carried += len(self._known) - len(found)
        return [k.detection for k in self._known]

    # --- helpers ------------------------------------------------------------------------------------

    def _small(self, gray: np.ndarray) -> np.ndarray:
        h, w = gray.shape[:2]
        return cv2.resize(gray, (max(w // self.cell, 1), max(h // self.cell, 1)), interpolation=cv2.INTER_AREA)

    def _tag_px(self) -> float:
        sides = [k.detection.side_px() for k in self._known]
        return float(np.median(sides)) if sides else 80.0

    def _dirty_boxes(self, dirty: np.ndarray, w: int, h: int) -> list[tuple[int, int, int, int]]:
        """Pixel boxes to decode: dirty blocks grown by half a tag, plus known tags they touch."""
        c = self.cell
        grow = max(1, int(round(self._tag_px() * 0.6 / c)))
        grown = cv2.dilate(dirty, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        boxes = [(int(x * c), int(y * c), int((x + bw) * c), int((y + bh) * c)) for x, y, bw, bh, _ in stats[1:count]]
        for k in self._known + self._lost:
            if any(_overlap(k.box, b) for b in boxes):
                boxes.append(k.box)
        return _merge([(max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)) for x0, y0, x1, y1 in boxes])

    def _read(self, crop: np.ndarray, dx: int, dy: int) -> list[Detection]:
        """Decode a crop; give codes located but not read a second, upscaled look."""
        crop = np.ascontiguousarray(crop)
        if not self.can_retry:
            return [d.shifted(dx, dy) for d in self.decoder.decode(crop)]
        found, misses = self.decoder.decode_with_misses(crop)
        results = [d.shifted(dx, dy) for d in found]
        for corners in misses[:self.max_retries]:
            self.stats.retries += 1
            again = self._second_look(crop, corners)
            if again is not None:
                self.stats.retry_reads += 1
                results.append(again.shifted(dx, dy))
        return _unique(results)

    def _second_look(self, crop: np.ndarray, corners: np.ndarray) -> Detection | None:
        """Upscale the region of a located-but-unread code 2x and decode it again."""
        side = float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())
        margin = max(side * 0.35, 6.0)
        (x0, y0), (x1, y1) = corners.min(axis=0) - margin, corners.max(axis=0) + margin
        h, w = crop.shape[:2]
        x0, y0, x1, y1 = int(max(x0, 0)), int(max(y0, 0)), int(min(x1, w)), int(min(y1, h))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        region = cv2.resize(crop[y0:y1, x0:x1], None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
        for attempt in (self.decoder.decode, self.decoder.decode_hard):
            got = attempt(region)
            if got:
                return got[0].shifted(x0, y0, scale=2.0)
        return None

    def _remember(self, found: list[Detection], replaced: list[_Known]) -> None:
        """Replace the known codes in the decoded area by what was read there now."""
        gone = {id(k) for k in replaced}
        kept = [k for k in self._known if id(k) not in gone]
        margin = self._tag_px() * 0.3
        fresh = [_Known(d, _box(d.corners, margin)) for d in found]
        fresh_texts = {k.detection.text for k in fresh}
        for k in replaced:
            if k.detection.text not in fresh_texts:
                k.lost_at = self._frame
                self._lost.append(k)
        self._lost = [k for k in self._lost if self._frame - (k.lost_at or 0) <= self.keep_lost_frames
                      and k.detection.text not in fresh_texts]
        self._known = kept + fresh


def _box(corners: np.ndarray, margin: float) -> tuple[int, int, int, int]:
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return int(x0 - margin), int(y0 - margin), int(x1 + margin + 1), int(y1 + margin + 1)


def _inside(point, box) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _merge(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Merge overlapping boxes until none overlap (so no pixel is decoded twice)."""
    boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    merged = True
    while merged:
        merged = False
        out: list[tuple[int, int, int, int]] = []
        for b in boxes:
            for i, o in enumerate(out):
                if _overlap(b, o):
                    out[i] = (min(b[0], o[0]), min(b[1], o[1]), max(b[2], o[2]), max(b[3], o[3]))
                    merged = True
                    break
            else:
                out.append(b)
        boxes = out
    return boxes


def _unique(detections: list[Detection]) -> list[Detection]:
    """One detection per physical code: same text and centres closer than half a code apart."""
    out: list[Detection] = []
    for d in detections:
        if not any(o.text == d.text and np.hypot(*np.subtract(o.center, d.center)) < 0.5 * max(o.side_px(), 1) for o in out):
            out.append(d)
    return out
