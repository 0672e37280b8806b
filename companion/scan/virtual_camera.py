"""The virtual table's camera: where it is (a pinhole above the mat) and how its image looks.

``Camera`` places the lens (height, tilt, roll, scale); ``mat_homography`` turns that into the
3x3 map from mat millimetres to frame pixels. ``Look`` is the image's conditions: defocus blur,
uneven lighting, low light, a lamp's glare spot, sensor noise and JPEG compression, applied to a
rendered frame by ``apply_look``. The light fields (``light_gain``, ``glare_spot``,
``noise_fields``) depend only on the frame size and the look, so the table renders them once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

MAT_MM = (900.0, 600.0)
CAMERA_HEIGHT_MM = 700.0  # the lens above the mat's centre (50-80 cm at a real table)
NOISE_PAD = 61            # noise fields are this much larger than the frame (see apply_look)
GLARE_WASHOUT = 160       # glare adding more than this (of 255) leaves a black module nearly white


@dataclass(frozen=True)
class Camera:
    """Where the simulated camera is and how it looks at the mat.

    ``px_per_mm`` is the scale at the mat point seen at the frame's centre; None fits the whole
    mat (and its markers) in the frame. ``look_at_mm`` is that point (None: the mat's centre).
    """

    tilt_deg: float = 10.0
    roll_deg: float = 1.5
    height_mm: float = CAMERA_HEIGHT_MM
    px_per_mm: float | None = None
    look_at_mm: tuple[float, float] | None = None
    margin_mm: float = 12.0


@dataclass(frozen=True)
class Look:
    """Image conditions: optics, sensor, light."""

    blur_sigma: float = 0.7       # defocus, pixels
    noise_sigma: float = 3.0      # sensor noise, grey levels
    vignette: float = 0.25        # uneven lighting: fraction of light lost at the darkest corner
    glare: float = 0.0            # glare spot strength (0: none, 1: saturates at its core)
    glare_at: tuple[float, float] = (0.62, 0.45)   # where the lamp reflects, as frame fractions
    glare_radius: float = 0.10    # in frame widths
    jpeg_quality: int | None = None
    exposure: float = 1.0         # low light: the share of the light the sensor gets (noise is added after)


def mat_homography(width: int, height: int, camera: Camera, mat_mm=MAT_MM) -> np.ndarray:
    """The 3x3 homography from mat millimetres to frame pixels for a pinhole camera."""
    mat_w, mat_h = mat_mm
    tilt, roll = math.radians(camera.tilt_deg), math.radians(camera.roll_deg)
    rx = np.array([[1, 0, 0], [0, math.cos(-tilt), -math.sin(-tilt)], [0, math.sin(-tilt), math.cos(-tilt)]])
    rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    rot = rz @ rx
    look = camera.look_at_mm or (mat_w / 2, mat_h / 2)
    extrinsic = np.column_stack([rot[:, 0], rot[:, 1], [0.0, 0.0, camera.height_mm]])
    to_look = np.array([[1, 0, -look[0]], [0, 1, -look[1]], [0, 0, 1]], dtype=float)
    unit = extrinsic @ to_look  # projection with focal length 1 and the look-at point on the axis
    if camera.px_per_mm is not None:
        f = camera.px_per_mm * camera.height_mm
        k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
        return k @ unit
    m = camera.margin_mm
    corners = np.array([[-m, -m], [mat_w + m, -m], [mat_w + m, mat_h + m], [-m, mat_h + m]], dtype=np.float64)
    projected = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), unit).reshape(-1, 2)
    (x0, y0), (x1, y1) = projected.min(axis=0), projected.max(axis=0)
    f = min(width / (x1 - x0), height / (y1 - y0))
    k = np.array([[f, 0, width / 2 - f * (x0 + x1) / 2], [0, f, height / 2 - f * (y0 + y1) / 2], [0, 0, 1]])
    return k @ unit


def project(h: np.ndarray, points) -> np.ndarray:
    """Points (N x 2) through a homography: mat mm to frame pixels, or back with its inverse."""
    return cv2.perspectiveTransform(np.asarray(points, dtype=np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def apply_look(frame, look: Look, gain, glare, noise, frame_no: int) -> np.ndarray:
    """What the camera makes of a sharp rendered frame: blur, light, glare, noise, JPEG."""
    return apply_sensor(apply_optics(frame, look, gain, glare), look, noise, frame_no)


def apply_optics(frame, look: Look, gain, glare) -> np.ndarray:
    """The part of the look that is the same in every frame of a still scene: blur, light, glare."""
    if look.blur_sigma > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), look.blur_sigma)
    if gain is not None:
        frame = cv2.multiply(frame, gain, scale=1 / 255)
    if look.exposure != 1.0:
        frame = cv2.convertScaleAbs(frame, alpha=look.exposure)
    if glare is not None:
        frame = cv2.add(frame, glare)
    return frame


def apply_sensor(frame, look: Look, noise, frame_no: int) -> np.ndarray:
    """The part of the look that changes from frame to frame: sensor noise, then JPEG. A new array
    (``frame`` itself is not changed: the table keeps its optics from one frame to the next)."""
    if not noise and not look.jpeg_quality:
        return frame.copy()
    if noise:
        # a different window of a field larger than the frame each time: noise that does not
        # repeat from frame to frame (what averaging frames of a still table relies on)
        plus, minus = noise[frame_no % len(noise)]
        dx, dy = (frame_no * 37) % NOISE_PAD, (frame_no * 53 + frame_no // NOISE_PAD) % NOISE_PAD
        h, w = frame.shape[:2]
        frame = cv2.subtract(cv2.add(frame, plus[dy:dy + h, dx:dx + w]), minus[dy:dy + h, dx:dx + w])
    if look.jpeg_quality:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(look.jpeg_quality)])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


def light_gain(width: int, height: int, look: Look):
    """Uneven lighting as a per-pixel gain (255 = full light), or None when the light is even."""
    if look.vignette <= 0:
        return None
    w, h = width, height
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # a lamp off to one side: light falls off with distance from (0.35 w, 0.2 h)
    d = np.hypot((xx - 0.35 * w) / w, (yy - 0.2 * h) / w)
    gain = 1.0 - look.vignette * np.clip(d / d.max(), 0, 1) ** 1.5
    g = np.clip(gain * 255, 0, 255).astype(np.uint8)
    return cv2.merge([g, g, g])


def glare_spot(width: int, height: int, look: Look):
    """The lamp's reflection as light added to each pixel, or None without glare."""
    if look.glare <= 0:
        return None
    w, h = width, height
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = look.glare_at[0] * w, look.glare_at[1] * h
    r = look.glare_radius * w
    d2 = ((xx - gx) ** 2 + (yy - gy) ** 2) / (r * r)
    spot = look.glare * 230 * np.exp(-d2 * 2.0)
    g = np.clip(spot, 0, 255).astype(np.uint8)
    return cv2.merge([g, g, g])


def noise_fields(width: int, height: int, seed: int, look: Look) -> list[tuple[np.ndarray, np.ndarray]]:
    """A few fields of sensor noise (as what to add and what to subtract), NOISE_PAD larger than
    the frame so that apply_look can take a different window of them for every frame."""
    if look.noise_sigma <= 0:
        return []
    rng = np.random.default_rng(seed + 2)
    pool = []
    for _ in range(3):  # luminance noise (what a sensor's Y plane shows), a few fields reused
        n = rng.standard_normal((height + NOISE_PAD, width + NOISE_PAD), dtype=np.float32) * look.noise_sigma
        plus, minus = cv2.convertScaleAbs(np.maximum(n, 0)), cv2.convertScaleAbs(np.maximum(-n, 0))
        pool.append((cv2.merge([plus] * 3), cv2.merge([minus] * 3)))
    return pool
