"""How well the camera sees the table: focus on the mat's corner markers, and how many pixels the
smallest tag in view gives each QR module. Measured from the newest frame when someone asks (the
Devices page, `companion doctor`), never on the per-frame path.
"""
from __future__ import annotations

from typing import Any

import numpy as np

# Variance of the Laplacian over a marker's box. Measured on the virtual table's 1280x720 frame: crisp
# 1,700; a Gaussian blur of sigma 1 px 650, 1.5 px 370, 2 px 250 (where small tags stop reading).
FOCUS_SHARP = 400.0
# Every tag is a version-1 QR code (card_tags/sheets.py): 21 modules a side.
TAG_MODULES = 21
# From 2.5 pixels per module up the pipeline reads at least 97% of tags in every condition
# `companion bench scan` measures (hardware.md, "Why 2.5 pixels per module").
MIN_PX_PER_MODULE = 2.5


def marker_focus(frame: np.ndarray, found: dict[int, Any]) -> float | None:
    """Sharpness on the markers the camera sees: the mean variance of the Laplacian in their boxes."""
    import cv2

    scores = []
    for corners in found.values():
        pts = np.asarray(corners, dtype=np.float32).reshape(-1, 2)
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        box = frame[max(y0, 0):y1, max(x0, 0):x1]
        if box.ndim == 3:
            box = cv2.cvtColor(box, cv2.COLOR_BGR2GRAY)
        if box.size >= 64:
            scores.append(float(cv2.Laplacian(box, cv2.CV_64F).var()))
    return float(np.mean(scores)) if scores else None


def tag_px_per_module(corners: np.ndarray) -> float:
    """Pixels per module of one tag from its four corners: its mean side over 21 modules."""
    pts = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    return float(sides.mean()) / TAG_MODULES
