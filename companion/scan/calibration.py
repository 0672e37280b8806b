"""Calibration of the play mat: four ArUco markers give camera pixels -> mat millimetres.

The markers (OpenCV's ArUco dictionary 4x4_50, ids 0-3) sit inside the four corners of the play
area, each a ``MARKER_MM`` black square on a white paper square (``companion mat print`` prints
them at 100% scale). Their sixteen corners are known in mat millimetres, so finding three or
four of them in a frame gives the homography from frame pixels to the mat, and zones (zones.py)
can be defined once, in millimetres, whatever the camera's height and angle.

A camera that gets bumped is noticed the next time the markers are looked for (every second, and
at once when most of the frame changes): when the markers seen are no longer where the current
calibration expects them, the homography is recomputed from the markers in view. If fewer than
three are in view (hands over them), the calibration is marked stale and the pipeline holds
its zone assignments until the markers are visible again, rather than seat cards wrongly.

Marker layout (mat mm, origin at the far-left corner; seat 1 sits at the near edge)::

    0 ──────────────── 1      far edge (y = 0)
    │                  │
    │     play area    │
    │                  │
    3 ──────────────── 2      near edge (y = 600)
"""
from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np

MAT_MM = (900.0, 600.0)
MARKER_MM = 50.0               # the black square of each marker
MARKER_INSET_MM = 10.0         # from the mat's edges to the marker's black square
MARKER_PAPER_MARGIN_MM = 7.0   # white paper around the black square (ArUco needs a light border)
DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)      # far-left, far-right, near-right, near-left
CROP_PERIMETER_RATE = 0.3      # detect_markers_near: the smallest marker's perimeter, a share of its crop's side
MOVE_TOLERANCE_PX = 4.0        # a marker this far from where calibration expects it: the camera moved
MIN_MARKERS = 3
SEARCH_WIDTH = 960             # a whole-frame search runs on the frame downscaled to at most this wide
SEARCH_GRID = (4, 3)           # ...spread over frames (search_step): this many tiles (columns, rows), one a step
FIRST_SEARCH_GRID = (5, 4)     # ...or, with no calibration to say how large the markers are (nor to shrink the
#                                 tiles by), this many smaller ones: calibrated 0.7 s after the start at 30 fps, not 0.4
SEARCH_MARKER_PX = 48          # ...each shrunk further while the markers expected stay this large (black square)
# ...and thresholded once, with OpenCV's largest default window (23 px), not three times (3, 13 and 23): the
# markers there are 15-50 px (halved, or shrunk to SEARCH_MARKER_PX). On 14 virtual tables (1080p and 720p,
# 20 cards, plain, blur, tilt, low light, glare, noise) the same markers found, a tile's median 6.1 -> 2.3 ms here
# and its worst 18.7 -> 8.9 (the cards' codes make most of the outlines each threshold's contours walk)
SEARCH_THRESHOLD_WINDOW = 23
# ...and takes no outline under a square 1.2% of the frame's larger side (23 px at 1080p) for a marker. The
# widest view hardware.md's table lists (a Camera Module 3 Wide 1 m up, 2470 mm of table across the frame)
# shows a 50 mm marker 2.0% of the width; the bench's far markers (tilt 35, 2 px a module) 1.4%. OpenCV's
# smallest (a perimeter 3% of the side: a square of 0.75%, 14 px) also took every code's finder patterns
# and the table's grain for candidates, each checked for a marker's bits: the first search of a 1080p table
# of 20 cards checked 214 outlines, its dearest tile 6.0 ms here (7.8 at 4 px a module), now 75 and 1.6
# (2.5) in FIRST_SEARCH_GRID's smaller tiles; the same markers found on the bench's 190 tables
SEARCH_SMALLEST_SQUARE = 0.012


def marker_corners_mm(mat_mm=MAT_MM) -> dict[int, np.ndarray]:
    """Each marker's black-square corners in mat mm, in ArUco's order (TL, TR, BR, BL)."""
    w, h = mat_mm
    s, m = MARKER_MM, MARKER_INSET_MM
    origins = {0: (m, m), 1: (w - m - s, m), 2: (w - m - s, h - m - s), 3: (m, h - m - s)}
    return {i: np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float64)
            for i, (x, y) in origins.items()}


MARKERS = marker_corners_mm()


@functools.lru_cache(maxsize=8)
def _marker_layout(mat_mm) -> tuple[tuple[int, ...], np.ndarray]:
    """The markers' ids and their sixteen corners (mat mm) as one read-only array."""
    layout = marker_corners_mm(mat_mm)
    corners = np.concatenate(list(layout.values()))
    corners.flags.writeable = False
    return tuple(layout), corners


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker's black square (with its bit pattern) as a greyscale image side_px wide."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, side_px)


@functools.cache
def _detector(min_perimeter_rate: float = 0.03, window: int | None = None) -> cv2.aruco.ArucoDetector:
    """One detector per process and setting (making one costs more than a small crop's
    detection). ``min_perimeter_rate``: the smallest marker's perimeter, as a share of the
    image's larger side (OpenCV's default, 0.03, for a whole frame). ``window``: threshold with
    this one window only (None: OpenCV's three)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.minMarkerPerimeterRate = min_perimeter_rate
    if window is not None:
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = window
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def detect_markers(gray: np.ndarray, max_width: int = SEARCH_WIDTH, min_perimeter_rate: float = 0.03,
                   window: int | None = None) -> dict[int, np.ndarray]:
    """Our four markers found in a frame: id -> 4x2 corners in frame pixels.

    Markers are big (50 mm), so detection runs on a frame downscaled to at most max_width
    pixels wide, which keeps it a few milliseconds even at 1920x1080.
    """
    if gray.ndim == 3:
        gray = cv2.cvtColor(gray, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, max_width / gray.shape[1])
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    corners, ids, _ = _detector(min_perimeter_rate, window).detectMarkers(small)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for marker_corners, marker_id in zip(corners, ids.ravel()):
        if int(marker_id) in MARKER_IDS:
            found[int(marker_id)] = marker_corners.reshape(4, 2).astype(np.float64) / scale
    return found


def detect_markers_near(gray: np.ndarray, expected: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """detect_markers in a crop around each marker where it is expected (its box and a marker's
    side around it), at full size (halved, a crop this small costs the detector more, not less):
    a steady camera's check costs four small detections, about 1.5 ms each here, instead of one
    over the whole frame (40 ms at 1080p, over a frame's budget). Markers expected off the frame
    are not looked for. In a crop the marker expected is about a third of its width (a perimeter
    about 1.3 times it): outlines much smaller are no candidates (CROP_PERIMETER_RATE), or a dim,
    noisy picture's thousands of specks cost the detector 30 ms a crop instead of 2."""
    h, w = gray.shape[:2]
    found: dict[int, np.ndarray] = {}
    for marker_id, corners in expected.items():
        side = float(np.ptp(corners[:, 0]) + np.ptp(corners[:, 1])) / 2
        x0, y0 = (corners.min(axis=0) - side).astype(int)
        x1, y1 = (corners.max(axis=0) + side).astype(int)
        if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
            continue
        x0, y0 = max(x0, 0), max(y0, 0)
        crop = gray[y0:min(y1, h), x0:min(x1, w)]
        got = detect_markers(crop, max_width=crop.shape[1], min_perimeter_rate=CROP_PERIMETER_RATE)
        if marker_id in got:
            found[marker_id] = got[marker_id] + np.array([x0, y0], dtype=np.float64)
    return found


def search_tiles(w: int, h: int, marker_px: float, grid: tuple[int, int] = SEARCH_GRID) -> list[tuple[int, int, int, int]]:
    """A w x h frame cut into ``grid`` tiles (x0, y0, x1, y1), row by row, overlapping by one and a half
    markers (``marker_px``, with its paper), so that every marker lies whole in one of them."""
    cols, rows = grid
    grow = int(np.ceil(0.75 * marker_px))
    return [(max(c * w // cols - grow, 0), max(r * h // rows - grow, 0),
             min((c + 1) * w // cols + grow, w), min((r + 1) * h // rows + grow, h))
            for r in range(rows) for c in range(cols)]


def detect_markers_in_tile(gray: np.ndarray, tile: tuple[int, int, int, int], scale: float | None = None,
                           smallest_px: float = 0.0) -> dict[int, np.ndarray]:
    """detect_markers over one tile of a whole-frame search, as the search of the whole frame would find
    them there: the tile downscaled as the whole frame is (``SEARCH_WIDTH``; or by ``scale``), and no
    outline smaller than the whole frame's search takes (a square ``SEARCH_SMALLEST_SQUARE`` of the
    frame's larger side), nor than a square of ``smallest_px`` a side."""
    h, w = gray.shape[:2]
    x0, y0, x1, y1 = tile
    scale = min(1.0, SEARCH_WIDTH / w) if scale is None else scale
    longest = max(x1 - x0, y1 - y0)
    rate = round(max(4 * SEARCH_SMALLEST_SQUARE * max(w, h), 4 * smallest_px) / longest, 3)   # (rounded: a detector is made per rate)
    got = detect_markers(gray[y0:y1, x0:x1], max_width=max(1, round((x1 - x0) * scale)), min_perimeter_rate=rate,
                         window=SEARCH_THRESHOLD_WINDOW)
    return {i: c + np.array([x0, y0], dtype=np.float64) for i, c in got.items()}


def homography_from_markers(found: dict[int, np.ndarray], mat_mm=MAT_MM) -> np.ndarray | None:
    """Frame pixels -> mat mm from the markers found (at least MIN_MARKERS), or None."""
    if len(found) < MIN_MARKERS:
        return None
    layout = marker_corners_mm(mat_mm)
    src = np.concatenate([found[i] for i in sorted(found)])
    dst = np.concatenate([layout[i] for i in sorted(found)])
    h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
    return h


@dataclass
class CalibrationState:
    status: str           # "waiting for markers" | "calibrated" | "stale"
    detail: str
    markers_seen: int
    recalibrations: int
    last_check: float

    def as_dict(self) -> dict:
        return {"status": self.status, "detail": self.detail, "markers_seen": self.markers_seen,
                "recalibrations": self.recalibrations, "last_check": self.last_check}


# A whole-frame search under way (Calibration.search_step): the tiles left, the markers found so far, the
# frame's size, the scale its tiles are searched at, the smallest square worth finding there (px a side).
_Search = tuple[list[tuple[int, int, int, int]], dict[int, np.ndarray], tuple[int, int], float, float]


class Calibration:
    """The current frame -> mat homography, kept up to date from the markers.

    ``fixed`` gives a homography that is trusted without markers (a saved calibration, or the
    virtual table's ground truth in tests); markers seen later still override it if they move.
    """

    def __init__(self, mat_mm=MAT_MM, fixed: np.ndarray | None = None, tolerance_px: float = MOVE_TOLERANCE_PX):
        self.mat_mm = tuple(mat_mm)
        self.tolerance_px = tolerance_px
        self.homography: np.ndarray | None = None if fixed is None else np.asarray(fixed, dtype=np.float64)
        self.stale = False
        self.recalibrations = 0
        self.markers_seen = 0
        self.last_check = 0.0
        self.detail = "calibration given" if fixed is not None else "looking for the four mat markers"
        self.last_markers: dict[int, np.ndarray] = {}
        # a check under way (check_step): the markers expected, and those found where expected so far
        self._checking: tuple[dict[int, np.ndarray], dict[int, np.ndarray]] | None = None
        self._search: _Search | None = None   # a whole-frame search under way (search_step)
        self._moved_once: list[int] | None = None   # the markers a search found moved, with too few to recalibrate
        self._inverse: np.ndarray | None = None   # frame <- mat, for the homography it was made from
        self._inverted: np.ndarray | None = None
        # what a search concludes is read whole (state(): the web's threads): between its markers counted and
        # its homography set, the calibration page showed "waiting for markers - 4 of 4 markers in view"
        self._concluding = threading.Lock()

    @property
    def ready(self) -> bool:
        """True when frame positions can be turned into mat positions (and zones) with confidence."""
        return self.homography is not None and not self.stale

    def expected_markers(self) -> dict[int, np.ndarray]:
        """Where the current calibration expects each marker's corners in the frame."""
        if self.homography is None:
            return {}
        ids, corners_mm = _marker_layout(self.mat_mm)
        return dict(zip(ids, self.to_frame(corners_mm).reshape(-1, 4, 2)))

    def update(self, gray: np.ndarray, now: float | None = None) -> str:
        """Look for the markers; recalibrate when they moved. Returns what happened, in words."""
        self.last_check = time.monotonic() if now is None else now
        found = self._steady_markers(gray)
        if found is not None:
            self.markers_seen = len(found)
            self.last_markers = found
            self.detail = f"steady ({len(found)} of 4 markers in view)"
            return self.detail
        return self._conclude(detect_markers(gray, min_perimeter_rate=4 * SEARCH_SMALLEST_SQUARE))

    def search_step(self, gray: np.ndarray, now: float | None = None) -> bool:
        """One step of a whole-frame search for the markers, spread over frames: one tile a step
        (``SEARCH_GRID``, or ``FIRST_SEARCH_GRID`` before a first calibration; the frame downscaled as a
        search of it at once is), so that no frame pays for the whole search (8-14 ms here at 1080p, 5-8
        at 640 x 360 where no marker is in view: the detector walks every outline of the hands and cards).
        True once the last tile is searched and the calibration updated from the markers found in them
        all, as ``update`` does."""
        if self._search is None or self._search[2] != gray.shape[1::-1]:
            self._search = self._begin_search(gray)
        tiles, found, _, scale, smallest = self._search
        for marker_id, corners in detect_markers_in_tile(gray, tiles.pop(0), scale, smallest).items():
            found.setdefault(marker_id, corners)
        if tiles:
            return False
        self._search = None
        self.last_check = time.monotonic() if now is None else now
        self._conclude(found)
        return True

    def _begin_search(self, gray: np.ndarray) -> _Search:
        """A whole-frame search, its tiles all to search (``search_step`` takes them one a step). Where
        the calibration expects markers, no outline under 40% of the smallest expected is looked at, and
        the tiles are downscaled further while that marker stays ``SEARCH_MARKER_PX`` a side (by
        halvings: OpenCV's fast shrink, a quarter 0.3 ms where a shrink to 0.248 took 1.5). The detector
        walked every outline of a hand in a tile down to a few pixels: in the crossings' close view (a
        camera close over the table, 200-260 px markers at 1080p, none in view) a median 4.1 ms a tile
        here, 12 at worst, now 1.4 and 3.0; in the table view 2.7 and 8.6, now 1.5 and 3.2. A camera
        moved back (its markers half the size expected) is still calibrated again."""
        h, w = gray.shape[:2]
        squares = self._squares_px()
        smallest = min(squares, default=0.0)
        halvings = int(np.log2(smallest / SEARCH_MARKER_PX)) if smallest >= 2 * SEARCH_MARKER_PX else 0
        scale = min(1.0, SEARCH_WIDTH / w, 0.5 ** halvings)
        grid = SEARCH_GRID if squares else FIRST_SEARCH_GRID
        return search_tiles(w, h, self._marker_px(w, max(squares, default=0.0)), grid), {}, (w, h), scale, 0.4 * smallest

    def _squares_px(self) -> list[float]:
        """The black squares' sides where the calibration expects them, in frame pixels (none without one)."""
        return [float(np.ptp(c[:, 0]) + np.ptp(c[:, 1])) / 2 for c in self.expected_markers().values()]

    def _marker_px(self, w: int, square: float) -> float:
        """A marker's side with its paper, in frame pixels: the largest square expected, else as in a frame
        the play area fills at most (the whole mat is in view: a 64 mm square of 900 mm, a fourteenth of
        the width; a tenth taken, the tiles' overlap then 1.5 of it: at an eighth the first search's tiles
        were a tenth larger, for markers no mat in view has)."""
        return square * (MARKER_MM + 2 * MARKER_PAPER_MARGIN_MM) / MARKER_MM if square else w / 10

    def _conclude(self, found: dict[int, np.ndarray]) -> str:
        """The calibration from the markers a search of the whole frame found: kept, recalibrated, or
        stale (the camera moved with too few in view). Returns what happened, in words."""
        with self._concluding:
            return self._concluded(found)

    def _concluded(self, found: dict[int, np.ndarray]) -> str:
        self.markers_seen = len(found)
        self.last_markers = found
        moved_once, self._moved_once = self._moved_once, None   # (set again below if it is seen again)
        if not found:
            self.detail = "no mat markers in view" + ("; keeping the last calibration" if self.homography is not None else "")
            return self.detail
        expected = self.expected_markers()
        moved = [i for i, c in found.items() if i in expected and
                 float(np.linalg.norm(c - expected[i], axis=1).mean()) > self.tolerance_px]
        if self.homography is not None and not moved and not self.stale:
            self.detail = f"steady ({len(found)} of 4 markers in view)"
            return self.detail
        h = homography_from_markers(found, self.mat_mm)
        if h is None:
            if self.homography is not None and not self.stale and moved_once != sorted(found):
                # once is no proof: a hand or a card's print read as one of our markers, in a view
                # that shows fewer than three, held every event until three were seen again (a
                # crossing of the bench, 600 frames on); the next check (a second on) decides
                self._moved_once = sorted(found)
                self.detail = f"{len(found)} of 4 markers, not where expected; looking again"
            elif self.homography is not None:
                self.stale = True
                self.detail = (f"the camera moved: {len(found)} of 4 markers in view, "
                               f"{MIN_MARKERS} are needed to recalibrate")
            else:
                self.detail = f"{len(found)} of 4 mat markers in view; {MIN_MARKERS} are needed to calibrate"
            return self.detail
        first = self.homography is None
        self.homography = h
        self.stale = False
        if first:
            self.detail = f"calibrated from {len(found)} markers"
        else:
            self.recalibrations += 1
            self.detail = f"the camera moved; recalibrated from {len(found)} markers"
        return self.detail

    def check_step(self, gray: np.ndarray, now: float | None = None) -> bool:
        """One step of the periodic check, spread over frames so that no frame pays for four
        marker searches at once: a steady calibration looks for one expected marker a step, where
        it is expected; True once the check is over: every marker found where expected, or one
        missing or moved and then the whole frame searched, a tile a step from the next frame
        (``search_step``), since the camera may have moved. Without a trusted calibration the check
        is that search alone."""
        if self._search is not None:
            return self.search_step(gray, now)
        if self._checking is None:
            expected = self._expected_in_frame(gray)
            if self.homography is None or self.stale or not expected:
                return self.search_step(gray, now)
            self._checking = (expected, {})
        expected, found = self._checking
        marker_id = next(i for i in expected if i not in found)
        got = detect_markers_near(gray, {marker_id: expected[marker_id]})
        if marker_id not in got or float(np.linalg.norm(got[marker_id] - expected[marker_id], axis=1).mean()) > self.tolerance_px:
            self._checking = None   # the camera may have moved: the whole frame searched, from the next frame
            self._search = self._begin_search(gray)
            return False
        found[marker_id] = got[marker_id]
        if len(found) < len(expected):
            return False
        self._checking = None
        self.last_check = time.monotonic() if now is None else now
        self.markers_seen = len(found)
        self.last_markers = found
        self.detail = f"steady ({len(found)} of 4 markers in view)"
        return True

    def _expected_in_frame(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        h, w = gray.shape[:2]
        return {i: c for i, c in self.expected_markers().items()
                if c[:, 0].min() >= 0 and c[:, 1].min() >= 0 and c[:, 0].max() < w and c[:, 1].max() < h}

    def _steady_markers(self, gray: np.ndarray) -> dict[int, np.ndarray] | None:
        """The markers, when each one expected in the frame is found where it is expected (looked
        for only there: detect_markers_near); None when one is missing or moved, or no
        calibration is trusted yet (then the whole frame is searched)."""
        if self.homography is None or self.stale:
            return None
        expected = self._expected_in_frame(gray)
        if not expected:
            return None
        found = detect_markers_near(gray, expected)
        if set(found) != set(expected):
            return None
        if any(float(np.linalg.norm(c - expected[i], axis=1).mean()) > self.tolerance_px for i, c in found.items()):
            return None
        return found

    def to_mat(self, points_px) -> np.ndarray:
        """Frame pixels (N x 2) -> mat mm (N x 2). Requires a homography."""
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_frame(self, points_mm) -> np.ndarray:
        if self._inverse is None or self._inverted is not self.homography:   # once per homography
            # (cv2.invert: a third of np.linalg.inv's time right after a decode evicted both)
            self._inverse, self._inverted = cv2.invert(self.homography)[1], self.homography
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self._inverse).reshape(-1, 2)

    def state(self) -> CalibrationState:
        with self._concluding:
            status = "waiting for markers" if self.homography is None else ("stale" if self.stale else "calibrated")
            return CalibrationState(status, self.detail, self.markers_seen, self.recalibrations, self.last_check)


def marker_boxes(markers: dict[int, np.ndarray]) -> list[tuple[int, int, int, int]]:
    """Each marker's box in the frame (x0, y0, x1, y1), with its white paper border. (Plain
    Python: for four markers it is cheaper than NumPy's calls.)"""
    boxes = []
    for corners in markers.values():
        xs, ys = zip(*corners.tolist())
        m = (max(xs) - min(xs)) * 0.3
        boxes.append((int(min(xs) - m), int(min(ys) - m), int(max(xs) + m), int(max(ys) + m)))
    return boxes
