"""The calibration page's live preview: the newest camera frame with what the pipeline made of it.

Drawn over a reduced copy of the frame: the mat markers found (green, with their id) or where
calibration expects them (amber, when hidden), the zones projected from mat millimetres into
the frame (cyan), and every code read, coloured by what it is: a card of the game (green, with
its key and zone), another game's tag (amber), a damaged tag (red) or a foreign code (grey).
This runs in the web request's thread on a frame the pipeline has finished with, so it never
slows decoding.
"""
from __future__ import annotations

import cv2
import numpy as np

COLOURS = {"card": (80, 220, 80), "other-game": (40, 180, 250), "damaged": (60, 60, 240), "foreign": (170, 170, 170)}
ZONE = (230, 200, 60)
MARKER_SEEN = (80, 220, 80)
MARKER_MISSING = (40, 180, 250)


def draw(frame: np.ndarray, seen, calibration, zones, max_width: int = 960) -> np.ndarray:
    """A BGR image of at most max_width pixels wide with markers, zones and codes drawn on it."""
    scale = min(1.0, max_width / frame.shape[1])
    image = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame.copy()
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    thick = max(1, round(2 * scale + 0.5))
    if calibration.homography is not None:
        _draw_zones(image, calibration, zones, scale, thick)
    _draw_markers(image, calibration, scale, thick)
    for s in seen:
        pts = np.round(np.asarray(s.corners) * scale).astype(np.int32)
        colour = COLOURS.get(s.kind, COLOURS["foreign"])
        cv2.polylines(image, [pts], True, colour, thick + 1, cv2.LINE_AA)
        label = f"{s.ref.key} {s.zone or 'no zone'}" if s.kind == "card" else s.kind
        _label(image, label, tuple(pts.min(axis=0)), colour)
    return image


def _draw_zones(image, calibration, zones, scale, thick) -> None:
    for zone in zones.zones:
        corners = [[zone.x, zone.y], [zone.x + zone.w, zone.y], [zone.x + zone.w, zone.y + zone.h], [zone.x, zone.y + zone.h]]
        pts = np.round(calibration.to_frame(corners) * scale).astype(np.int32)
        cv2.polylines(image, [pts], True, ZONE, thick, cv2.LINE_AA)
        centre = pts.mean(axis=0).astype(int)
        _label(image, zone.label or zone.name, (int(centre[0]) - 30, int(centre[1])), ZONE)


def _draw_markers(image, calibration, scale, thick) -> None:
    found = calibration.last_markers
    for marker_id, corners in calibration.expected_markers().items():
        if marker_id not in found:
            pts = np.round(corners * scale).astype(np.int32)
            cv2.polylines(image, [pts], True, MARKER_MISSING, thick, cv2.LINE_AA)
            _label(image, f"marker {marker_id} hidden?", tuple(pts.min(axis=0)), MARKER_MISSING)
    for marker_id, corners in found.items():
        pts = np.round(corners * scale).astype(np.int32)
        cv2.polylines(image, [pts], True, MARKER_SEEN, thick + 1, cv2.LINE_AA)
        _label(image, f"marker {marker_id}", tuple(pts.min(axis=0)), MARKER_SEEN)


def _label(image, text: str, at, colour) -> None:
    x, y = int(at[0]), max(int(at[1]) - 4, 12)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)


def jpeg(image: np.ndarray, quality: int = 70) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("could not encode the preview")
    return data.tobytes()
