"""Frame sources behind one interface: ``open()``, ``read()``, ``close()``, ``name``, ``describe()``.

- ``Picamera2Source``: the Raspberry Pi camera through picamera2 (only when it is importable:
  on Raspberry Pi OS, ``apt install python3-picamera2`` and a venv made with
  ``--system-site-packages``). It reads the Y plane of a YUV420 stream, which is already the
  greyscale image the decoders want, so no colour conversion is spent on it.
- ``OpenCVCameraSource``: a USB webcam (V4L2 on Linux) or any path/URL OpenCV can open.
- ``FileSource``: a video file, or a folder of images played in name order.
- ``VirtualTableSource``: the simulated table (demo, tests, benchmark).

With no size given, a camera opens at the largest mode it offers at ``MIN_AUTO_FPS`` frames per
second or more, scaled down to fit ``MAX_AUTO_SIZE`` (``best_size``): tags need the pixels
(hardware.md, "Camera height and tag size"), and decoding cost grows with them.

``read()`` returns a frame (BGR or greyscale numpy array), or None when no frame is ready yet;
the watchdog's reader thread turns it grey (``grey``) before the scanner's thread takes it;
it raises ``SourceError`` when the device fails (unplugged...) and ``EndOfSource`` when a file
has no more frames. A source may be opened again after ``close()``: the pipeline's watchdog
does exactly that when a source fails or stalls. ``open_source(spec)`` turns a ``--source``
string into a source.
"""
from __future__ import annotations

import abc
import glob
import importlib.util
import logging
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm", ".ppm"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mjpeg", ".mjpg", ".h264"}
MAX_AUTO_SIZE = (1920, 1080)
MIN_AUTO_FPS = 15.0

log = logging.getLogger(__name__)


def grey(frame: np.ndarray) -> np.ndarray:
    """The picture the scanner reads: one channel. A colour frame (a USB webcam's, a file's, the
    virtual table's) is turned grey here, on the reader thread, so the frame thread does not pay
    for it (about 1 ms a 1080p frame here on one core; the Pi camera's Y plane is grey already)."""
    import cv2

    if frame.ndim == 2:
        return frame
    if frame.shape[2] == 1:
        return frame[:, :, 0]
    return cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY if frame.shape[2] == 4 else cv2.COLOR_BGR2GRAY)


class SourceError(RuntimeError):
    """A source that cannot be opened or stopped working. The message says which and why."""


class EndOfSource(Exception):
    """A file or folder has no more frames (not a failure: the table stays as last seen)."""


class FrameSource(abc.ABC):
    name = "source"

    def open(self) -> None:
        """Acquire the device or file. May raise SourceError."""

    @abc.abstractmethod
    def read(self) -> np.ndarray | None:
        """The next frame, or None if none is ready yet."""

    def close(self) -> None:
        """Release the device or file; the source may be opened again afterwards."""

    def describe(self) -> dict:
        return {"name": self.name, "kind": type(self).__name__}


class _Pacer:
    """Keeps a source to a frame rate (a file or the virtual table would otherwise race)."""

    def __init__(self, fps: float | None):
        self.interval = 1.0 / fps if fps else 0.0
        self.next = 0.0

    def wait(self) -> None:
        if not self.interval:
            return
        now = time.monotonic()
        if self.next > now:
            time.sleep(self.next - now)
            now = self.next
        self.next = max(self.next, now) + self.interval  # late frames are not caught up in a burst


class VirtualTableSource(FrameSource):
    """Frames rendered from a VirtualTable at a steady frame rate."""

    def __init__(self, table, fps: float = 30.0):
        self.table = table
        self.fps = fps
        self.name = f"virtual table {table.width}x{table.height}"
        self._pacer = _Pacer(fps)

    def open(self) -> None:
        self._pacer = _Pacer(self.fps)

    def read(self) -> np.ndarray:
        self._pacer.wait()
        return self.table.render()

    def describe(self) -> dict:
        return {"name": self.name, "kind": "virtual", "resolution": [self.table.width, self.table.height], "fps": self.fps}


class OpenCVCameraSource(FrameSource):
    """A camera through OpenCV: a device index (0), a device path (/dev/video0) or a stream URL.
    ``size=None`` negotiates the largest size up to MAX_AUTO_SIZE the camera gives at MIN_AUTO_FPS."""

    def __init__(self, index_or_path: int | str = 0, size: tuple[int, int] | None = None, fps: float | None = 30,
                 negotiate: bool = True):
        self.device = index_or_path
        self.size, self.fps = size, fps
        self.negotiate = negotiate   # False: a stream URL, taken as it comes
        self.name = f"camera {index_or_path}"
        self._cap = None
        self._opened: dict = {}

    def open(self) -> None:
        import cv2

        device = self.device
        if isinstance(device, str) and device.isdigit():
            device = int(device)
        backend = cv2.CAP_V4L2 if sys.platform.startswith("linux") and (
            isinstance(device, int) or str(device).startswith("/dev/video")) else cv2.CAP_ANY
        cap = cv2.VideoCapture(device, backend)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"cannot open camera {self.device!r} (is it plugged in, and not used by another program?)")
        if self.negotiate:
            negotiate_size(cap, self.size, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued a second ago
        # what the camera agreed to, read now: describe() runs in other threads than read()
        self._opened = {"resolution": [int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))],
                        "fps": cap.get(cv2.CAP_PROP_FPS)}
        self._cap = cap

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise SourceError(f"camera {self.device!r} is not open")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise SourceError(f"camera {self.device!r} stopped delivering frames (unplugged?)")
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def describe(self) -> dict:
        return {"name": self.name, "kind": "opencv", "device": str(self.device), **self._opened}


def negotiate_size(cap, size: tuple[int, int] | None, fps: float | None) -> tuple[int, int]:
    """Ask an OpenCV capture for ``size`` (or, with None, the largest of MAX_AUTO_SIZE and 1280x720
    that it gives at MIN_AUTO_FPS or more); what it agreed to. MJPG first: a USB webcam sends
    1920x1080 at 30 fps as MJPG but often at 5 fps uncompressed."""
    import cv2

    cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
    wanted = [size] if size else [MAX_AUTO_SIZE, (1280, 720)]
    for width, height in wanted:
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            cap.set(cv2.CAP_PROP_FPS, fps)
        got = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        rate = cap.get(cv2.CAP_PROP_FPS)
        if size or not rate or rate >= MIN_AUTO_FPS:   # 0: the driver does not say; take it
            return got
    return got


class FileSource(FrameSource):
    """A video file, or a folder of images played in name order, at ``fps`` frames per second.

    At the end it raises EndOfSource: the table stays as last seen (no card is taken away).
    ``loop=True`` starts again instead (for a looping demo recording).
    """

    def __init__(self, path: str | os.PathLike, fps: float | None = None, loop: bool = False):
        self.path = Path(path)
        self.loop = loop
        self.fps = fps
        self.name = f"file {self.path.name}"
        self._cap = None
        self._images: list[Path] = []
        self._index = 0
        self._pacer = _Pacer(fps)

    def open(self) -> None:
        import cv2

        self._index = 0
        if self.path.is_dir():
            self._images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._images:
                raise SourceError(f"folder {self.path} holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
            self._pacer = _Pacer(self.fps or 2.0)
            return
        if not self.path.exists():
            raise SourceError(f"no such file: {self.path}")
        if self.path.suffix.lower() in IMAGE_SUFFIXES:
            self._images = [self.path]
            self._pacer = _Pacer(self.fps or 2.0)
            return
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise SourceError(f"cannot read {self.path} as a video")
        self._cap = cap
        self._pacer = _Pacer(self.fps or cap.get(cv2.CAP_PROP_FPS) or 30.0)

    def read(self) -> np.ndarray:
        import cv2

        self._pacer.wait()
        if self._images:
            if self._index >= len(self._images):
                if not self.loop:
                    raise EndOfSource(f"{self.path}: all {len(self._images)} images shown")
                self._index = 0
            path = self._images[self._index]
            self._index += 1
            frame = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if frame is None:
                raise SourceError(f"cannot read image {path}")
            if frame.ndim == 3 and frame.shape[2] == 4:
                frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
            return frame
        if self._cap is None:
            raise SourceError(f"{self.path} is not open")
        ok, frame = self._cap.read()
        if not ok:
            if not self.loop:
                raise EndOfSource(f"{self.path}: end of video")
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
            if not ok:
                raise SourceError(f"cannot rewind {self.path}")
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def describe(self) -> dict:
        kind = "folder" if self.path.is_dir() else "file"
        info = {"name": self.name, "kind": kind, "path": str(self.path)}
        if self._images:
            info["images"] = len(self._images)
        return info


def picamera2_available() -> bool:
    try:
        import picamera2  # noqa: F401
    except Exception:
        return False
    return True


def picamera2_import_error() -> str | None:
    """Why an installed picamera2 does not import (its error, in one line), or None when it is not
    installed or imports. The usual cause: a numpy in the venv shadowing the system's, which
    picamera2 and simplejpeg are compiled against (scripts/setup.sh keeps it from happening)."""
    try:
        if importlib.util.find_spec("picamera2") is None:
            return None
    except (ImportError, ValueError):
        return None
    try:
        import picamera2  # noqa: F401
    except Exception as exc:
        lines = [line for line in str(exc).splitlines() if line.strip()]
        return f"{type(exc).__name__}: {lines[-1] if lines else exc}"
    return None


def picamera2_broken_error(problem: str) -> SourceError:
    """The error to raise (and log) for a picamera2 that is installed but does not import."""
    log.error("the Pi camera cannot be used: picamera2 is installed but does not import: %s", problem)
    return SourceError(f"picamera2 is installed but does not import ({problem}), so the Pi camera cannot be used. "
                       f"Usually a numpy in the venv shadows the system's: run `sudo bash scripts/install.sh` again "
                       f"(or `bash scripts/setup.sh`); or choose a USB camera with --source /dev/video0")


def best_size(modes: list[tuple[int, int, float]]) -> tuple[int, int] | None:
    """The largest of a camera's modes (width, height, fps) at MIN_AUTO_FPS or more, scaled down
    (its shape kept, even sides) to fit MAX_AUTO_SIZE; None when no mode is fast enough."""
    usable = [(w, h) for w, h, fps in modes if fps >= MIN_AUTO_FPS]
    if not usable:
        return None
    width, height = max(usable, key=lambda s: s[0] * s[1])
    scale = min(1.0, MAX_AUTO_SIZE[0] / width, MAX_AUTO_SIZE[1] / height)
    return int(width * scale) // 2 * 2, int(height * scale) // 2 * 2


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera via picamera2: the Y (luma) plane of a YUV420 video stream.
    ``size=None``: the sensor's largest mode at MIN_AUTO_FPS or more, up to MAX_AUTO_SIZE."""

    def __init__(self, size: tuple[int, int] | None = None, camera_num: int = 0):
        problem = picamera2_import_error()
        if problem:
            raise picamera2_broken_error(problem)
        if not picamera2_available():
            raise SourceError("picamera2 is not importable: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
                              "and make the venv with --system-site-packages (see hardware.md)")
        self.size, self.camera_num = size, camera_num
        self.width, self.height = size or MAX_AUTO_SIZE
        self.name = f"Pi camera {camera_num}"
        self._cam = None
        self._lock = threading.Lock()

    def open(self) -> None:
        from picamera2 import Picamera2

        try:
            cam = Picamera2(self.camera_num)
            if self.size is None:
                modes = [(*m["size"], float(m.get("fps", 0))) for m in cam.sensor_modes]
                self.width, self.height = best_size(modes) or MAX_AUTO_SIZE
            config = cam.create_video_configuration(main={"size": (self.width, self.height), "format": "YUV420"})
            cam.configure(config)
            cam.start()
        except Exception as exc:
            raise SourceError(f"cannot start the Pi camera {self.camera_num}: {exc}") from exc
        self._cam = cam

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise SourceError("the Pi camera is not open")
        try:
            yuv = self._cam.capture_array("main")
        except Exception as exc:
            raise SourceError(f"the Pi camera stopped delivering frames: {exc}") from exc
        # YUV420 arrives as (height * 3/2, width): the first `height` rows are the Y plane
        return yuv[:self.height, :self.width]

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None

    def describe(self) -> dict:
        return {"name": self.name, "kind": "picamera2", "resolution": [self.width, self.height], "format": "YUV420 (Y plane)"}


def video_devices() -> list[str]:
    """USB/V4L2 camera devices present (Linux): /dev/video0, /dev/video1..."""
    return sorted(glob.glob("/dev/video[0-9]*"), key=lambda p: int(p.removeprefix("/dev/video")))


def detect_source(size: tuple[int, int] | None = None) -> FrameSource:
    """Auto-detection: the Pi camera when picamera2 imports and sees one, else the first USB camera.
    A picamera2 that is installed but does not import is an error, never a reason to take another
    camera: the table would silently watch the wrong device, or none."""
    problem = picamera2_import_error()
    if problem:
        raise picamera2_broken_error(problem)
    if picamera2_available():
        try:
            from picamera2 import Picamera2

            if Picamera2.global_camera_info():
                return Picamera2Source(size)
            log.info("picamera2 sees no Pi camera; looking for a USB camera")
        except Exception as exc:  # picamera2 present but no camera connected: try USB next
            log.warning("picamera2 could not list the Pi cameras (%s); looking for a USB camera", exc)
    devices = video_devices()
    if devices:
        return OpenCVCameraSource(devices[0], size)
    raise SourceError("no camera found (no Pi camera through picamera2, no /dev/video*); "
                      "use --source virtual for the demo table, or --source FILE")


def open_source(spec: str | None = "auto", table=None, fps: float = 30.0,
                size: tuple[int, int] | None = None) -> FrameSource:
    """A source from a ``--source`` string (not opened yet; the pipeline opens it).

    "auto" (or None): detect a camera. "virtual": the simulated table (``table``, or a new one).
    "picamera" / "picamera:1": the Pi camera. "0", "1"...: a USB camera index. "/dev/videoN":
    that device. A file or folder path: FileSource. Anything with "://": a stream URL via OpenCV.
    ``size`` (width, height): what a camera is asked for; None: the best it offers (best_size).
    """
    spec = (spec or "auto").strip()
    if spec == "auto":
        return detect_source(size)
    if spec == "virtual":
        if table is None:
            from companion.scan.virtual_table import VirtualTable

            table = VirtualTable(*(size or (1280, 720)))
        return VirtualTableSource(table, fps)
    if spec == "picamera" or spec.startswith("picamera:"):
        number = spec.partition(":")[2]
        return Picamera2Source(size, int(number) if number.isdigit() else 0)
    if spec.isdigit():
        return OpenCVCameraSource(int(spec), size, fps)
    if spec.startswith("/dev/video"):
        if not os.path.exists(spec):
            raise SourceError(f"no such camera device {spec}; present: {', '.join(video_devices()) or 'none'}")
        return OpenCVCameraSource(spec, size, fps)
    if "://" in spec:
        return OpenCVCameraSource(spec, None, None, negotiate=False)
    if os.path.exists(spec):
        return FileSource(spec)
    raise SourceError(f"--source {spec!r} is not a camera, a file or a folder: use auto, virtual, picamera, "
                      f"a camera number (0), a device (/dev/video0), a video file or a folder of images")


def parse_size(text: str) -> tuple[int, int]:
    """ "1920x1080" -> (1920, 1080); ValueError saying what is expected."""
    width, sep, height = text.strip().lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit()) or not (
            160 <= int(width) <= 8192 and 120 <= int(height) <= 8192):
        raise ValueError(f"a camera size is WIDTHxHEIGHT in pixels, like 1920x1080, not {text!r}")
    return int(width), int(height)
