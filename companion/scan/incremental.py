"""Decoding as a pipeline: decode only what changed, look again where a code was nearly read.

A camera over a table mostly sees the same picture: cards lie still for seconds while a hand
moves somewhere. ``IncrementalDecoder`` keeps the codes it already read and, each frame:

1. compares a small copy of the frame (one value per ``cell`` x ``cell`` block) with the copy
   taken when each block was last decoded; blocks that changed by more than ``threshold``
   grey levels are *dirty* (sensor noise averages out over a block; a card, a hand does not);
2. grows the dirty blocks by about half a tag, adds the box of every known or recently lost
   tag they touch, merges overlapping boxes, and decodes only those crops, or the whole frame
   when most of it changed (the first frame, the camera moved, the light changed);
3. takes a *second look* where a code was expected but not read: codes the decoder located but
   could not decode (zxing-cpp reports those), and patches with the fine black-and-white
   texture of a QR code (high local contrast at tag scale) that hold no code read. Each is
   cropped, upscaled 2x and sharpened before decoding again: small or soft tags read then.
   A second look that fails is retried on the next few frames (the noise differs each time);
4. keeps the work per frame bounded: at most ``max_regions`` crops, ``max_looks`` second looks
   and ``look_area`` of the frame in them; what is left waits for the next frame;
5. once every ``full_every`` frames decodes the whole frame anyway, so nothing missed stays
   missed.

Known codes whose boxes were not touched are carried over unchanged: that is what makes a
steady table cost about a millisecond a frame.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .decoders import Detection, ZxingDecoder

Box = tuple[int, int, int, int]   # x0, y0, x1, y1 in frame pixels


@dataclass
class DecodeStats:
    frames: int = 0
    full_decodes: int = 0
    regions: int = 0
    second_looks: int = 0
    second_look_reads: int = 0
    carried: int = 0
    deferred: int = 0
    last_dirty_fraction: float = 0.0

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class _Known:
    detection: Detection
    box: Box                         # the code's box with a margin
    lost_at: int | None = None       # frame number when it stopped being read (kept a while)


@dataclass
class _Pending:
    box: Box                         # a place where a code was expected but not read
    tries: int = 0


@dataclass
class IncrementalDecoder:
    decoder: object
    cell: int = 8
    threshold: int = 12
    full_every: int = 30
    full_fraction: float = 0.45
    max_regions: int = 12
    max_looks: int = 24
    look_area: float = 0.15          # share of the frame's pixels second looks may cover per frame
    pending_tries: int = 4
    retries_per_frame: int = 3
    keep_lost_frames: int = 60
    stats: DecodeStats = field(default_factory=DecodeStats)

    def __post_init__(self):
        self._reference: np.ndarray | None = None
        self._known: list[_Known] = []
        self._lost: list[_Known] = []
        self._pending: list[_Pending] = []
        self._frame = 0
        self.last_small: np.ndarray | None = None   # this frame's block means (the motion map shares them)
        self.can_look_again = isinstance(self.decoder, ZxingDecoder)
        self.ignore: list[Box] = []   # places never worth a second look (the calibration markers)

    @property
    def name(self) -> str:
        return f"{self.decoder.name}+pipeline"

    def reset(self) -> None:
        self._reference = None
        self._known.clear()
        self._lost.clear()
        self._pending.clear()

    def decode(self, gray: np.ndarray) -> list[Detection]:
        """Every code believed in view in this frame (read now or carried over unchanged)."""
        self._frame += 1
        self.stats.frames += 1
        small = self.last_small = self._small(gray)
        if self._reference is None or self._reference.shape != small.shape:
            self.stats.last_dirty_fraction = 1.0
            return self._decode_full(gray, small)
        dirty = (cv2.absdiff(small, self._reference) > self.threshold).astype(np.uint8)
        fraction = float(np.count_nonzero(dirty)) / dirty.size
        self.stats.last_dirty_fraction = fraction
        if fraction > self.full_fraction or self._frame % self.full_every == 0:
            return self._decode_full(gray, small)
        if fraction > 0.0:
            self._decode_regions(gray, small, dirty)
        else:
            self.stats.carried += len(self._known)
        if self._pending:
            self._retry_pending(gray)
        return [k.detection for k in self._known]

    # --- the two ways of decoding ---------------------------------------------------------------

    def _decode_full(self, gray: np.ndarray, small: np.ndarray) -> list[Detection]:
        self.stats.full_decodes += 1
        self._pending.clear()
        found = self._read(gray, (0, 0, gray.shape[1], gray.shape[0]))
        self._reference = small
        self._remember(found, replaced=list(self._known))
        return [k.detection for k in self._known]

    def _decode_regions(self, gray: np.ndarray, small: np.ndarray, dirty: np.ndarray) -> None:
        h, w = gray.shape[:2]
        boxes = self._dirty_boxes(dirty, w, h)
        if len(boxes) > self.max_regions:
            self.stats.deferred += len(boxes) - self.max_regions
            boxes = sorted(boxes, key=_area, reverse=True)[:self.max_regions]
        if sum(map(_area, boxes)) > self.full_fraction * w * h:
            self._decode_full(gray, small)
            return
        self._pending = [p for p in self._pending if not any(_overlap(p.box, b) for b in boxes)]
        found: list[Detection] = []
        c = self.cell
        for box in boxes:
            self.stats.regions += 1
            found += self._read(gray, box)
            x0, y0, x1, y1 = box
            self._reference[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)] = small[y0 // c:-(-y1 // c), x0 // c:-(-x1 // c)]
        replaced = [k for k in self._known if any(_contains(b, _clip(k.box, w, h)) for b in boxes)]
        self._remember(unique_detections(found), replaced)
        self.stats.carried += len(self._known) - len(found)

    # --- reading a box, and looking again --------------------------------------------------------

    def _read(self, gray: np.ndarray, box: Box) -> list[Detection]:
        """Decode a box of the frame; look again where a code was expected but not read."""
        x0, y0, x1, y1 = box
        crop = np.ascontiguousarray(gray[y0:y1, x0:x1])
        if not self.can_look_again:
            return [d.shifted(x0, y0) for d in self.decoder.decode(crop)]
        found, misses = self.decoder.decode_with_misses(crop)
        tag_px = self._tag_px()
        # Textured patches cover a whole code; a located-but-unread code counts where none does.
        # Codes already read are painted out first, so a patch joining a read code and an unread
        # neighbour still shows the neighbour.
        places = texture_patches(_painted_out(crop, found), tag_px)
        found = [d.shifted(x0, y0) for d in found]
        for m in misses:
            if _plausible_code(m, tag_px) and not any(_inside(m.mean(axis=0), b) for b in places):
                places.append(_grow(_box(m, 0), tag_px * 0.2, crop.shape))
        places = [(b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0) for b in places]
        unexplained = [b for b in places if not any(_inside(d.center, b) for d in found)
                       and not any(_inside(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), i) for i in self.ignore)]
        return unique_detections(found + self._look_again(gray, unexplained))

    def _look_again(self, gray: np.ndarray, places: list[Box]) -> list[Detection]:
        """Second looks at places, smallest first, within this frame's budget; the rest wait."""
        budget = self.look_area * gray.shape[0] * gray.shape[1]
        found: list[Detection] = []
        for n, box in enumerate(sorted(places, key=_area)):
            if n >= self.max_looks or _area(box) > budget:
                self._pending.append(_Pending(box))
                self.stats.deferred += 1
                continue
            budget -= _area(box)
            self.stats.second_looks += 1
            got = second_look(self.decoder, gray, box)
            if got:
                self.stats.second_look_reads += 1
                found += got
            else:
                self._pending.append(_Pending(box, tries=1))
        return found

    def _retry_pending(self, gray: np.ndarray) -> None:
        """A few second looks at places that failed or waited before: the noise differs each frame."""
        waiting, self._pending = sorted(self._pending, key=lambda p: p.tries), []
        found = []
        for n, p in enumerate(waiting):
            if n >= self.retries_per_frame:
                self._pending.append(p)
                continue
            self.stats.second_looks += 1
            got = second_look(self.decoder, gray, p.box)
            if got:
                self.stats.second_look_reads += 1
                found += got
            elif p.tries + 1 < self.pending_tries:
                self._pending.append(_Pending(p.box, p.tries + 1))
        if found:
            self._remember(unique_detections(found), replaced=[])

    # --- helpers ------------------------------------------------------------------------------------

    def _small(self, gray: np.ndarray) -> np.ndarray:
        h, w = gray.shape[:2]
        return cv2.resize(gray, (max(w // self.cell, 1), max(h // self.cell, 1)), interpolation=cv2.INTER_AREA)

    def _tag_px(self) -> float:
        sides = [k.detection.side_px() for k in self._known]
        return float(np.median(sides)) if sides else 52.0  # 21 modules at 2.5 px each

    def _dirty_boxes(self, dirty: np.ndarray, w: int, h: int) -> list[Box]:
        """Pixel boxes to decode: dirty blocks grown by half a tag, plus known tags they touch."""
        c = self.cell
        grow = max(1, int(round(self._tag_px() * 0.6 / c)))
        grown = cv2.dilate(dirty, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        boxes = [(int(x * c), int(y * c), int((x + bw) * c), int((y + bh) * c)) for x, y, bw, bh, _ in stats[1:count]]
        boxes = _merge(boxes)
        tags = [_clip(k.box, w, h) for k in self._known + self._lost]
        for _ in range(8):  # a merged box may reach further tags: take those in whole too, until none is cut
            cut = [t for t in tags if any(_overlap(t, b) for b in boxes) and not any(_contains(b, t) for b in boxes)]
            if not cut:
                break
            boxes = _merge(boxes + cut)
        return [_clip(b, w, h) for b in boxes]

    def _remember(self, found: list[Detection], replaced: list[_Known]) -> None:
        """Replace the known codes in the decoded area by what was read there now."""
        gone = {id(k) for k in replaced}
        kept = [k for k in self._known if id(k) not in gone]
        fresh = [_Known(d, _box(d.corners, d.side_px() * 0.3)) for d in found]
        kept = [k for k in kept if not any(_same_code(k.detection, f.detection) for f in fresh)]
        fresh_texts = {k.detection.text for k in fresh}
        for k in replaced:
            if k.detection.text not in fresh_texts:
                k.lost_at = self._frame
                self._lost.append(k)
        self._lost = [k for k in self._lost if self._frame - (k.lost_at or 0) <= self.keep_lost_frames
                      and k.detection.text not in fresh_texts]
        self._known = kept + fresh


def texture_patches(gray: np.ndarray, tag_px: float, contrast: float = 40.0) -> list[Box]:
    """Patches with the dense black-and-white texture of a QR code, at least half a tag wide.

    The local standard deviation of grey levels over a quarter-tag window is high inside a QR
    code (half its modules are dark, half light) and low on a plain mat, a card's white or a
    table's wood; card edges make thin lines, which an opening removes. Computed at half size."""
    if gray.shape[0] < 16 or gray.shape[1] < 16:
        return []
    half = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA).astype(np.float32)
    k = max(int(tag_px / 4), 5)
    mean = cv2.boxFilter(half, -1, (k, k))
    mean_sq = cv2.boxFilter(half * half, -1, (k, k))
    textured = (mean_sq - mean * mean > contrast * contrast).astype(np.uint8)
    textured = cv2.morphologyEx(textured, cv2.MORPH_OPEN, np.ones((k // 2 + 1, k // 2 + 1), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(textured)
    smallest = tag_px * 0.5
    return [_grow((2 * x, 2 * y, 2 * (x + w), 2 * (y + h)), tag_px * 0.15, gray.shape)
            for x, y, w, h, _ in stats[1:count] if 2 * w >= smallest and 2 * h >= smallest]


def _painted_out(image: np.ndarray, codes: list[Detection]) -> np.ndarray:
    """A copy of the image with each code (and a module-wide rim) filled with flat grey."""
    if not codes:
        return image
    out = image.copy()
    for d in codes:
        centre = d.corners.mean(axis=0)
        grown = centre + (d.corners - centre) * 1.15
        cv2.fillConvexPoly(out, np.round(grown).astype(np.int32), 128)
    return out


def second_look(decoder: ZxingDecoder, gray: np.ndarray, box: Box) -> list[Detection]:
    """Decode a box again, upscaled and sharpened: 2x, then 1.5x (with the local binariser)."""
    x0, y0, x1, y1 = box
    region = gray[y0:y1, x0:x1]
    if region.shape[0] < 8 or region.shape[1] < 8:
        return []
    for scale in (2.0, 1.5):
        big = cv2.resize(region, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        soft = cv2.GaussianBlur(big, (0, 0), 0.9 * scale)
        sharp = cv2.addWeighted(big, 3.5, soft, -2.5, 0)  # unsharp mask: restores module edges
        got = decoder.decode(sharp)
        if got:
            return [d.shifted(x0, y0, scale=scale) for d in got]
    return []


def _plausible_code(corners: np.ndarray, tag_px: float) -> bool:
    """zxing's failed attempts include junk (a point, a quadrilateral across three cards): keep
    those shaped like a code of a plausible size, a square seen at most 45 degrees off."""
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    return bool(sides.min() >= 21 * 1.5 and sides.max() <= 4 * max(tag_px, 52.0) and sides.max() <= 1.5 * sides.min())


def _area(box: Box) -> int:
    return max(box[2] - box[0], 0) * max(box[3] - box[1], 0)


def _box(corners: np.ndarray, margin: float) -> Box:
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return int(x0 - margin), int(y0 - margin), int(x1 + margin + 1), int(y1 + margin + 1)


def _grow(box: Box, margin: float, shape) -> Box:
    h, w = shape[:2]
    m = int(round(margin))
    return max(box[0] - m, 0), max(box[1] - m, 0), min(box[2] + m, w), min(box[3] + m, h)


def _contains(outer: Box, inner: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _clip(box: Box, w: int, h: int) -> Box:
    return max(box[0], 0), max(box[1], 0), min(box[2], w), min(box[3], h)


def _inside(point, box: Box) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _merge(boxes: list[Box]) -> list[Box]:
    """Merge overlapping boxes until none overlap (so no pixel is decoded twice)."""
    boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    merged = True
    while merged:
        merged = False
        out: list[Box] = []
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


def _same_code(a: Detection, b: Detection) -> bool:
    return a.text == b.text and np.hypot(*np.subtract(a.center, b.center)) < 0.5 * max(a.side_px(), 1)


def unique_detections(detections: list[Detection]) -> list[Detection]:
    """One detection per physical code: same text and centres closer than half a code apart."""
    out: list[Detection] = []
    for d in detections:
        if not any(_same_code(o, d) for o in out):
            out.append(d)
    return out
