"""QR decoding backends behind one call: ``decode(gray) -> list[Detection]``.

Three backends, chosen by name with ``make_decoder``:

- ``zxing``  (default): zxing-cpp. The fastest and most tolerant of the three here; it can also
  report codes it *located* but could not decode (``decode_with_misses``), which the pipeline
  uses to look again at those regions upscaled.
- ``pyzbar``: the ZBar library. A second opinion and the baseline of ``companion bench scan``.
- ``opencv``: OpenCV's QRCodeDetector, for comparison only (slow on crowded frames).

Every backend returns the code's text and its four corners in frame pixels, so the pipeline
can place the card on the mat whatever decoded it. Decoders see greyscale frames (a camera's
Y plane, or a converted BGR frame): colour adds nothing to a black-and-white code.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

NAMES = ("zxing", "pyzbar", "opencv")
DEFAULT = "zxing"


@dataclass(frozen=True, eq=False)
class Detection:
    """One QR code found in a frame: its text and its corners (4 x 2, frame pixels)."""

    text: str
    corners: np.ndarray = field(repr=False)
    # modules a side, where the reader tells the code's version (zxing-cpp does): what a finder's
    # size follows from, 7 of them; None where it does not say
    modules: int | None = field(default=None, repr=False)

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    def side_px(self) -> float:
        """Mean side length in pixels (the size of the code as the camera sees it)."""
        rolled = np.roll(self.corners, -1, axis=0)
        return float(np.linalg.norm(rolled - self.corners, axis=1).mean())

    def shifted(self, dx: float, dy: float, scale: float = 1.0) -> "Detection":
        """The same detection in the coordinates of a larger frame (a crop at dx, dy, upscaled by scale)."""
        return Detection(self.text, self.corners / scale + np.array([dx, dy], dtype=np.float32), self.modules)


def _as_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 3:
        import cv2

        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return np.ascontiguousarray(image)


def _modules(barcode) -> int | None:
    """A QR or Micro QR code's modules a side, from the version zxing-cpp reports (3.x: "Version"
    in ``extra``, "1"-"40" or "M1"-"M4"); None where it reports none."""
    version = str((getattr(barcode, "extra", None) or {}).get("Version", ""))
    if version.isdigit():
        return 17 + 4 * int(version)
    if version[:1] == "M" and version[1:].isdigit():
        return 9 + 2 * int(version[1:])
    return None


class ZxingDecoder:
    """zxing-cpp, restricted to QR codes (what our tags are) unless told to read every format.

    ``try_rotate``/``try_invert``/``try_downscale`` are off for the pipeline: a QR code reads at
    any rotation anyway, our tags are dark on light, and our tags are small in the frame, so
    the downscaled passes only cost time. ``thorough=True`` turns them on (``companion scan``).
    """

    name = "zxing"

    def __init__(self, thorough: bool = False):
        import zxingcpp

        self._zx = zxingcpp
        self.binarizers = zxingcpp.Binarizer
        self.thorough = thorough
        self.formats = zxingcpp.BarcodeFormat.QRCode
        if thorough:
            self.formats = (zxingcpp.BarcodeFormat.QRCode, zxingcpp.BarcodeFormat.MicroQRCode)

    def _read(self, gray: np.ndarray, errors: bool, binarizer=None, invert: bool | None = None):
        zx = self._zx
        kwargs = dict(formats=self.formats, try_rotate=self.thorough, try_downscale=self.thorough,
                      try_invert=self.thorough if invert is None else invert, return_errors=errors)
        if binarizer is not None:
            kwargs["binarizer"] = binarizer
        return zx.read_barcodes(_as_gray(gray), **kwargs)

    @staticmethod
    def _corners(barcode) -> np.ndarray:
        p = barcode.position
        return np.array([[p.top_left.x, p.top_left.y], [p.top_right.x, p.top_right.y],
                         [p.bottom_right.x, p.bottom_right.y], [p.bottom_left.x, p.bottom_left.y]],
                        dtype=np.float32)

    def _detection(self, barcode) -> Detection:
        return Detection(barcode.text, self._corners(barcode), _modules(barcode))

    def decode(self, gray: np.ndarray) -> list[Detection]:
        return [self._detection(b) for b in self._read(gray, errors=False) if b.valid]

    def decode_with_misses(self, gray: np.ndarray, binarizer=None,
                           invert: bool | None = None) -> tuple[list[Detection], list[np.ndarray]]:
        """Decoded codes, and the corners of codes located but not decoded (worth a second look).
        ``invert``: whether to retry the image inverted (default: when thorough)."""
        found, misses = [], []
        for b in self._read(gray, errors=True, binarizer=binarizer, invert=invert):
            if b.valid:
                found.append(self._detection(b))
            else:
                misses.append(self._corners(b))
        return found, _distinct_regions(misses, found)

    def decode_once(self, gray: np.ndarray, binarizer=None) -> list[Detection]:
        """One plain pass (no rotated, inverted or downscaled retries, however thorough): for
        views already scaled and equalised for the reader."""
        zx = self._zx
        kwargs = dict(formats=self.formats, try_rotate=False, try_downscale=False, try_invert=False)
        if binarizer is not None:
            kwargs["binarizer"] = binarizer
        return [self._detection(b) for b in zx.read_barcodes(_as_gray(gray), **kwargs) if b.valid]

    def decode_once_with_misses(self, gray: np.ndarray, binarizer=None) -> tuple[list[Detection], list[np.ndarray]]:
        """decode_once, and the corners of codes located but not decoded."""
        zx = self._zx
        kwargs = dict(formats=self.formats, try_rotate=False, try_downscale=False, try_invert=False, return_errors=True)
        if binarizer is not None:
            kwargs["binarizer"] = binarizer
        found, misses = [], []
        for b in zx.read_barcodes(_as_gray(gray), **kwargs):
            (found if b.valid else misses).append(self._detection(b) if b.valid else self._corners(b))
        return found, _distinct_regions(misses, found)

    def decode_hard(self, gray: np.ndarray) -> list[Detection]:
        """A second, differently binarised pass, for a small region that failed the first time."""
        return [self._detection(b)
                for b in self._read(gray, errors=False, binarizer=self._zx.Binarizer.GlobalHistogram) if b.valid]


def _distinct_regions(misses: list[np.ndarray], found: list[Detection]) -> list[np.ndarray]:
    """Failed attempts, one per place (zxing may report one code twice), none where a code was read."""
    out: list[np.ndarray] = []
    taken = [d.corners for d in found]
    for corners in misses:
        centre, side = corners.mean(axis=0), np.linalg.norm(corners[1] - corners[0])
        if all(np.linalg.norm(centre - other.mean(axis=0)) > 0.5 * max(side, 1.0) for other in taken + out):
            out.append(corners)
    return out


class PyzbarDecoder:
    """ZBar through pyzbar, restricted to QR codes."""

    name = "pyzbar"

    def __init__(self, thorough: bool = False):
        from pyzbar import pyzbar

        self._pyzbar = pyzbar
        self._symbols = None if thorough else [pyzbar.ZBarSymbol.QRCODE]

    def decode(self, gray: np.ndarray) -> list[Detection]:
        found = []
        for result in self._pyzbar.decode(_as_gray(gray), symbols=self._symbols):
            if result.type not in ("QRCODE", "SQCODE") and self._symbols is not None:
                continue
            points = np.array([[p.x, p.y] for p in result.polygon], dtype=np.float32)
            if len(points) != 4:  # ZBar gives a convex hull; a QR code always has four corners
                r = result.rect
                points = np.array([[r.left, r.top], [r.left + r.width, r.top],
                                   [r.left + r.width, r.top + r.height], [r.left, r.top + r.height]],
                                  dtype=np.float32)
            found.append(Detection(_zbar_text(result.data), points))
        return found


def _zbar_text(data: bytes) -> str:
    """ZBar's text, its charset guess undone where it was wrong: ZBar takes UTF-8 bytes that
    are also valid Shift JIS for Shift JIS and hands them back converted to UTF-8 (Chinese
    text comes out as Japanese mojibake, where zxing-cpp reads it right). Converted back, the
    bytes are UTF-8 again: that is what the code held."""
    text = data.decode("utf-8", errors="replace")
    try:
        original = text.encode("shift_jis").decode("utf-8")
    except UnicodeError:
        return text
    return original if original != text and not original.isascii() else text


class OpenCVDecoder:
    """OpenCV's QRCodeDetector (multi-code). For comparison in the benchmark."""

    name = "opencv"

    def __init__(self, thorough: bool = False):
        import cv2

        self._cv2 = cv2
        self._detector = cv2.QRCodeDetector()

    def decode(self, gray: np.ndarray) -> list[Detection]:
        """Codes OpenCV reads. Its own failures on a code (``cv2.error``, e.g. "mode 13 not
        implemented" on a damaged one) read nothing; a code whose bytes are not UTF-8 (a Kanji
        code) makes the binding raise for the whole call, so then each code is decoded alone."""
        gray = _as_gray(gray)
        try:
            ok, texts, points, _ = self._detector.detectAndDecodeMulti(gray)
        except self._cv2.error:
            return []
        except UnicodeDecodeError:
            return self._one_by_one(gray)
        if not ok or points is None:
            return []
        return [Detection(text, np.asarray(corners, dtype=np.float32).reshape(4, 2))
                for text, corners in zip(texts, points) if text]

    def _one_by_one(self, gray: np.ndarray) -> list[Detection]:
        try:
            ok, points = self._detector.detectMulti(gray)
        except self._cv2.error:
            return []
        found = []
        for corners in (points if ok and points is not None else []):
            try:
                text, _ = self._detector.decode(gray, corners)
            except (self._cv2.error, UnicodeDecodeError):
                continue
            if text:
                found.append(Detection(text, np.asarray(corners, dtype=np.float32).reshape(4, 2)))
        return found


_BACKENDS = {"zxing": ZxingDecoder, "pyzbar": PyzbarDecoder, "opencv": OpenCVDecoder}


def make_decoder(name: str = DEFAULT, thorough: bool = False):
    """A decoder by name ("zxing", "pyzbar" or "opencv"); ValueError naming the choices otherwise."""
    try:
        backend = _BACKENDS[name]
    except KeyError:
        raise ValueError(f"unknown decoder {name!r}; choose one of {', '.join(NAMES)}") from None
    return backend(thorough=thorough)
