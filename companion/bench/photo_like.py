"""Synthetic "phone photos" of printed tag sheets: the honest stand-in for real photographs.

No real photographs of our printed tags exist yet (no camera here; the real photographs in
tests/data/real_photos are ZXing's test photos of foreign codes, each filling much of its frame).
So ``companion bench scan --photos`` and the tests also use images made to look like what a
phone or a webcam makes of a printed sheet of our small tags, **clearly labelled synthetic**:

- a white sheet with a grid of tags (our payloads, and one foreign code), printed at a
  module size of 0.6-1.6 mm, lying on a wooden or cloth table;
- seen at an angle (a random homography: 0-50 degrees off the normal, any rotation), so the
  tags come out at 1.6-6 pixels per module;
- lens defocus (a disk kernel, as an out-of-focus lens makes, not a Gaussian), sometimes a
  little motion blur (a hand-held phone);
- uneven light: a lamp's falloff across the sheet and a soft shadow (a hand, a phone);
- low light: the exposure pushed up, with shot noise that grows with brightness and read noise;
- JPEG compression at quality 45-85, as phones and webcams send.

``make_set(folder, count, seed)`` writes the images and ``truth.json`` (the texts printed on
each sheet); the set kept in tests/data/photo_like was made with ``make_set(..., 16, seed=18)``.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

from card_tags.payload import CardRef, encode

from companion.scan.virtual_cards import qr_matrix

SHEET_PX_PER_MM = 8.0
FOREIGN = "https://example.org/menu"


def sheet(texts: list[str], module_mm: float, columns: int) -> tuple[np.ndarray, list[str]]:
    """A printed sheet (greyscale, SHEET_PX_PER_MM) with the texts' QR codes in a grid."""
    p = SHEET_PX_PER_MM
    side_mm = 21 * module_mm
    cell_mm = side_mm + 8 * module_mm + 6
    rows = math.ceil(len(texts) / columns)
    w, h = int((columns * cell_mm + 20) * p), int((rows * cell_mm + 20) * p)
    paper = np.full((h, w), 238, np.uint8)
    for i, text in enumerate(texts):
        r, c = divmod(i, columns)
        matrix = qr_matrix(text)
        size = int(round(matrix.shape[0] * module_mm * p))
        code = cv2.resize((1 - matrix) * 215 + 20, (size, size), interpolation=cv2.INTER_NEAREST)
        x, y = int((10 + c * cell_mm + 4 * module_mm) * p), int((10 + r * cell_mm + 4 * module_mm) * p)
        paper[y:y + size, x:x + size] = code
        cv2.putText(paper, text[-12:], (x, y + size + int(4 * p)), cv2.FONT_HERSHEY_SIMPLEX, 0.09 * p, 90, 2)
    return paper, texts


def photograph(paper: np.ndarray, rng: np.random.Generator, size=(640, 480), ppm_range=(1.6, 6.0),
               module_mm: float = 1.0) -> bytes:
    """What a phone makes of the sheet (a JPEG file's bytes): perspective, defocus, uneven and
    low light, noise, JPEG compression."""
    w, h = size
    ph, pw = paper.shape
    ppm = rng.uniform(*ppm_range)
    scale = ppm / (module_mm * SHEET_PX_PER_MM)            # photo px per sheet px at the centre
    tilt = math.radians(rng.uniform(0, 50))
    spin = rng.uniform(0, 2 * math.pi)
    half = np.array([[-pw, -ph], [pw, -ph], [pw, ph], [-pw, ph]], np.float64) / 2 * scale
    rot = np.array([[math.cos(spin), -math.sin(spin)], [math.sin(spin), math.cos(spin)]])
    flat = half @ rot.T
    # tilt about a random axis: points on one side recede (smaller), on the other come closer
    axis = rng.uniform(0, 2 * math.pi)
    along = flat @ np.array([math.cos(axis), math.sin(axis)])
    depth = 1 + math.sin(tilt) * along / max(np.abs(along).max(), 1) * 0.5
    seen = flat / depth[:, None] * np.array([1.0, 1.0])
    seen[:, 1] *= 1 - 0.5 * math.sin(tilt) ** 2 * 0.5
    centre = np.array([w / 2, h / 2]) + rng.uniform(-0.12, 0.12, 2) * (w, h)
    target = (seen + centre).astype(np.float32)
    source = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    homography = cv2.getPerspectiveTransform(source, target)
    table = _table(rng, w, h)
    # resample from the sheet with area averaging: shrink it first near the photo's scale
    pre = max(1.0, 0.5 / scale)
    small = cv2.resize(paper, None, fx=1 / pre, fy=1 / pre, interpolation=cv2.INTER_AREA) if pre > 1 else paper
    homography = homography @ np.diag([pre, pre, 1.0])
    warped = cv2.warpPerspective(small, homography, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(small.shape, 255, np.uint8), homography, (w, h), flags=cv2.INTER_LINEAR)
    a = mask.astype(np.float32) / 255
    image = warped.astype(np.float32) * a + table * (1 - a)
    image = _defocus(image, rng.uniform(0.4, 2.2))
    if rng.random() < 0.3:
        image = _motion(image, rng.uniform(1.5, 4.0), rng.uniform(0, 180))
    image *= _light(rng, w, h)
    exposure = rng.uniform(0.25, 1.0)                        # low light: fewer photons, more gain
    photons = np.clip(image, 0, 255) * exposure
    image = (photons + rng.normal(0, 1, image.shape) * np.sqrt(photons * 0.4 + 4)) / exposure
    ok, data = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 86))])
    return data.tobytes()


def _table(rng, w, h) -> np.ndarray:
    grain = cv2.resize(rng.normal(0, 1, (max(h // 20, 2), max(w // 3, 2))).astype(np.float32), (w, h))
    return np.float32(rng.uniform(60, 120)) + 12 * grain


def _defocus(image: np.ndarray, radius: float) -> np.ndarray:
    r = max(int(math.ceil(radius)), 1)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    disk = np.clip(radius + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
    return cv2.filter2D(image, -1, disk / disk.sum())


def _motion(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    n = int(math.ceil(length)) * 2 + 1
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
    cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def _light(rng, w, h) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    lx, ly = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
    falloff = 1 - rng.uniform(0.2, 0.6) * np.clip(np.hypot(xx - lx, yy - ly) / (1.4 * w), 0, 1)
    if rng.random() < 0.5:   # a soft shadow across part of the sheet
        sx, sy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.15, 0.35) * w
        falloff *= 1 - rng.uniform(0.3, 0.55) * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / (2 * r * r))
    return falloff


def make_set(folder: Path, count: int, seed: int = 18) -> dict[str, list[str]]:
    """Write count photo-like images of tag sheets and truth.json; return the truth."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    truth = {}
    for n in range(count):
        cards = [encode(CardRef("bom-battle", f"P{n:02d}{i}", 1 + i % 3)) for i in range(5)]
        module_mm = float(rng.uniform(0.6, 1.6))
        paper, texts = sheet(cards + [FOREIGN], module_mm, columns=3)
        name = f"sheet{n:02d}.jpg"
        (folder / name).write_bytes(photograph(paper, rng, module_mm=module_mm))
        truth[name] = texts
    (folder / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return truth
