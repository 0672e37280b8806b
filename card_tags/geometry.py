"""How big a printed tag must be for the camera over the table to read it.

A camera looking straight down at a flat mat sees a rectangle of the mat whose width is
``2 * height * tan(hfov / 2)``; spread over ``width_px`` pixels that is a fixed number of pixels per
millimetre everywhere on the mat (for a rectilinear lens the scale on a plane parallel to the
sensor is uniform). A QR code is read reliably only when each of its modules covers at least
``MIN_PIXELS_PER_MODULE`` pixels; the scanning work measures that figure over rotations, tilt, blur
and noise and documents it in hardware.md (2.5 until then). So:

    module_mm >= MIN_PIXELS_PER_MODULE / pixels_per_mm(camera)

Our payloads always fit a version-1 QR code: 21 x 21 modules, plus a quiet zone around it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

MIN_PIXELS_PER_MODULE = 2.5
QR_MODULES = 21            # a version-1 QR code is 21 x 21 modules
QUIET_ZONE_MODULES = 1     # white border printed around every tag: `companion bench tags` reads 1 as well as 2 (docs/payload-format.md)


@dataclass(frozen=True)
class Camera:
    """The camera over the table. Defaults: a Raspberry Pi Camera Module 3 Wide (102 degree
    horizontal field of view) streaming 1920 x 1080, its lens 600 mm above the mat: the camera
    hardware.md recommends, the lowest mount that sees the whole 90 x 60 cm mat with its markers
    (the standard Module 3 sees only 78 x 44 cm from there)."""

    height_mm: float = 600.0
    width_px: int = 1920
    height_px: int = 1080
    hfov_deg: float = 102.0

    def __post_init__(self) -> None:
        if self.height_mm <= 0 or self.width_px <= 0 or self.height_px <= 0:
            raise ValueError("camera height and resolution must be positive")
        if not 1 <= self.hfov_deg < 179:
            raise ValueError(f"horizontal field of view must be 1-179 degrees, not {self.hfov_deg}")

    @property
    def mat_width_mm(self) -> float:
        """Width of the mat the camera sees."""
        return 2 * self.height_mm * math.tan(math.radians(self.hfov_deg) / 2)

    @property
    def mat_depth_mm(self) -> float:
        return self.mat_width_mm * self.height_px / self.width_px

    @property
    def pixels_per_mm(self) -> float:
        return self.width_px / self.mat_width_mm

    def describe(self) -> str:
        return (f"camera {self.height_mm:g} mm above the mat, {self.width_px}x{self.height_px} px, "
                f"{self.hfov_deg:g} degree field of view ({self.mat_width_mm:.0f} x {self.mat_depth_mm:.0f} mm of "
                f"mat, {self.pixels_per_mm:.2f} px/mm)")


def pixels_per_module(camera: Camera, module_mm: float) -> float:
    """Pixels that one printed QR module covers in the camera's image."""
    return camera.pixels_per_mm * module_mm


def min_module_mm(camera: Camera, min_ppm: float = MIN_PIXELS_PER_MODULE) -> float:
    """The smallest module (mm) this camera reads reliably."""
    return min_ppm / camera.pixels_per_mm


def tag_mm(module_mm: float) -> float:
    """Side of the printed code itself (21 modules, without the quiet zone)."""
    return module_mm * QR_MODULES


def max_camera_height_mm(camera: Camera, module_mm: float, min_ppm: float = MIN_PIXELS_PER_MODULE) -> float:
    """The highest the camera may be mounted (same lens and resolution) and still read this module."""
    # pixels_per_mm scales as 1 / height, so ppm(h) = ppm(current) * current / h.
    return camera.height_mm * pixels_per_module(camera, module_mm) / min_ppm


@dataclass(frozen=True)
class TagFit:
    module_mm: float
    pixels_per_module: float
    min_ppm: float
    max_height_mm: float

    @property
    def readable(self) -> bool:
        return self.pixels_per_module >= self.min_ppm

    def warning(self, camera: Camera, what: str = "these tags") -> str | None:
        if self.readable:
            return None
        return (f"{what} are {tag_mm(self.module_mm):.1f} mm wide ({self.module_mm:.2f} mm per module): with the "
                f"{camera.describe()} that is {self.pixels_per_module:.2f} pixels per module, below the "
                f"{self.min_ppm:g} needed to read reliably. Mount the camera at most {self.max_height_mm:.0f} mm "
                f"above the mat, or print on a layout with bigger tags.")


def fit(camera: Camera, module_mm: float, min_ppm: float = MIN_PIXELS_PER_MODULE) -> TagFit:
    return TagFit(module_mm, pixels_per_module(camera, module_mm), min_ppm,
                  max_camera_height_mm(camera, module_mm, min_ppm))


def parse_resolution(text: str) -> tuple[int, int]:
    """"1920x1080" -> (1920, 1080), with a message naming the mistake otherwise."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.strip().isdigit() or not height.strip().isdigit():
        raise ValueError(f"resolution must look like 1920x1080, not {text!r}")
    return int(width), int(height)
