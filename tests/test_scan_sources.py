"""Frame sources: what each --source string opens, files and folders played to their end, and
clear errors for cameras that are not there."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.scan import sources
from companion.scan.sources import (EndOfSource, FileSource, OpenCVCameraSource, Picamera2Source, SourceError,
                                    VirtualTableSource, open_source)
from companion.scan.virtual_table import VirtualTable


def test_source_strings_pick_the_right_source(tmp_path):
    table = VirtualTable(320, 180)
    assert isinstance(open_source("virtual", table=table), VirtualTableSource)
    assert open_source("virtual", table=table).table is table
    camera = open_source("0")
    assert isinstance(camera, OpenCVCameraSource) and camera.device == 0
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.zeros((10, 10), np.uint8))
    assert isinstance(open_source(str(image)), FileSource)
    assert isinstance(open_source(str(tmp_path)), FileSource)
    assert isinstance(open_source("rtsp://camera.local/stream"), OpenCVCameraSource)


def test_bad_source_strings_say_what_is_accepted():
    with pytest.raises(SourceError, match="not a camera, a file or a folder"):
        open_source("webcam please")
    with pytest.raises(SourceError, match="no such camera device /dev/video42"):
        open_source("/dev/video42")


def test_a_camera_that_is_not_there_fails_to_open_with_a_reason():
    camera = OpenCVCameraSource(63)
    with pytest.raises(SourceError, match="cannot open camera 63"):
        camera.open()
    with pytest.raises(SourceError, match="not open"):
        camera.read()


def test_auto_detection_without_any_camera_points_to_the_demo(monkeypatch):
    monkeypatch.setattr(sources, "picamera2_available", lambda: False)
    monkeypatch.setattr(sources, "video_devices", lambda: [])
    with pytest.raises(SourceError, match="--source virtual"):
        open_source("auto")
    monkeypatch.setattr(sources, "video_devices", lambda: ["/dev/video2"])
    assert open_source("auto").device == "/dev/video2"


def test_the_pi_camera_without_picamera2_explains_how_to_get_it(monkeypatch):
    monkeypatch.setattr(sources, "picamera2_available", lambda: False)
    with pytest.raises(SourceError, match="apt install python3-picamera2"):
        Picamera2Source()


def test_a_folder_of_images_plays_in_name_order_then_ends(tmp_path):
    for n in (2, 1, 3):
        cv2.imwrite(str(tmp_path / f"shot{n}.png"), np.full((8, 8), n * 10, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    folder = FileSource(tmp_path, fps=1000)
    folder.open()
    assert [int(folder.read().flat[0]) for _ in range(3)] == [10, 20, 30]
    with pytest.raises(EndOfSource):
        folder.read()
    assert folder.describe()["images"] == 3


def test_a_video_file_plays_and_ends_or_loops(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (64, 48))
    for n in range(3):
        writer.write(np.full((48, 64, 3), 60 * n + 20, np.uint8))
    writer.release()
    once = FileSource(path, fps=1000)
    once.open()
    assert [round(float(once.read().mean()) / 10) for _ in range(3)] == [2, 8, 14]
    with pytest.raises(EndOfSource):
        once.read()
    looping = FileSource(path, fps=1000, loop=True)
    looping.open()
    assert len([looping.read() for _ in range(7)]) == 7


def test_files_that_cannot_be_read_are_reported(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        FileSource(tmp_path / "missing.mp4").open()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="holds no images"):
        FileSource(empty).open()
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video")
    with pytest.raises(SourceError, match="cannot read"):
        FileSource(junk).open()


def test_the_virtual_table_source_keeps_its_frame_rate():
    import time

    source = VirtualTableSource(VirtualTable(320, 180), fps=50)
    source.open()
    started = time.monotonic()
    frames = [source.read() for _ in range(10)]
    assert frames[0].shape == (180, 320, 3)
    assert time.monotonic() - started >= 9 / 50 * 0.9


def broken_picamera2(folder, monkeypatch) -> None:
    """A picamera2 that is installed but does not import, as on a Pi whose venv holds a numpy 2
    shadowing the system's numpy 1.x that picamera2 and simplejpeg are compiled for."""
    package = folder / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text(
        'raise ImportError("numpy.core.multiarray failed to import (A module that was compiled using NumPy 1.x '
        'cannot be run in NumPy 2.0.2)")\n')
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(__import__("sys").modules, "picamera2", raising=False)


def test_a_picamera2_that_fails_to_import_is_said_with_its_error_never_a_fallback_to_a_usb_camera(
        tmp_path, monkeypatch, caplog):
    broken_picamera2(tmp_path, monkeypatch)
    monkeypatch.setattr(sources, "video_devices", lambda: ["/dev/video0"])
    with caplog.at_level("ERROR", logger="companion.scan.sources"), \
            pytest.raises(SourceError, match="picamera2 is installed but does not import .*NumPy 1.x") as said:
        open_source("auto")
    assert "/dev/video0" in str(said.value)   # offered as a choice, not taken
    assert any("NumPy 1.x" in r.getMessage() for r in caplog.records)   # the journal says it too
    with pytest.raises(SourceError, match="does not import"):
        open_source("picamera")


def test_a_picamera2_not_installed_at_all_leaves_auto_to_the_usb_camera(monkeypatch):
    monkeypatch.setattr(sources, "picamera2_import_error", lambda: None)
    monkeypatch.setattr(sources, "picamera2_available", lambda: False)
    monkeypatch.setattr(sources, "video_devices", lambda: ["/dev/video0"])
    assert open_source("auto").device == "/dev/video0"


# Raspberry Pi camera modules' sensor modes (size, fps) as picamera2 lists them.
CAMERA_MODULE_3 = [(1536, 864, 120.13), (2304, 1296, 56.03), (4608, 2592, 14.35)]
HQ_CAMERA = [(1332, 990, 120.05), (2028, 1080, 50.03), (2028, 1520, 40.01), (4056, 3040, 10.0)]


@pytest.mark.parametrize("modes, size", [
    (CAMERA_MODULE_3, (1920, 1080)),   # 2304x1296 at 56 fps, scaled down to fit 1920x1080
    (HQ_CAMERA, (1440, 1080)),         # 2028x1520 at 40 fps (4:3), to fit 1080 high
    ([(640, 480, 90.0), (1280, 720, 30.0)], (1280, 720)),
    ([(3840, 2160, 8.0)], None),       # nothing at 15 fps
])
def test_the_default_size_is_the_largest_mode_at_15_fps_up_to_1920x1080(modes, size):
    assert sources.best_size(modes) == size


class FakeWebcam:
    """An OpenCV capture of a webcam that gives 1920x1080 at 30 fps as MJPG, 5 fps uncompressed."""

    def __init__(self, mjpg: bool):
        self.mjpg_ok = mjpg
        self.props = {cv2.CAP_PROP_FRAME_WIDTH: 640, cv2.CAP_PROP_FRAME_HEIGHT: 480, cv2.CAP_PROP_FPS: 30}
        self.mjpg = False

    def set(self, prop, value):
        if prop == cv2.CAP_PROP_FOURCC:
            self.mjpg = self.mjpg_ok
        else:
            self.props[prop] = value
        return True

    def get(self, prop):
        if prop == cv2.CAP_PROP_FPS and self.props[cv2.CAP_PROP_FRAME_WIDTH] >= 1920 and not self.mjpg:
            return 5.0
        return self.props[prop]


def test_a_webcam_is_asked_for_1080p_and_takes_720p_when_1080p_is_too_slow():
    assert sources.negotiate_size(FakeWebcam(mjpg=True), None, 30) == (1920, 1080)
    assert sources.negotiate_size(FakeWebcam(mjpg=False), None, 30) == (1280, 720)
    assert sources.negotiate_size(FakeWebcam(mjpg=False), (1920, 1080), 30) == (1920, 1080)   # asked for: kept


def test_camera_sizes_are_width_x_height():
    assert sources.parse_size("1920x1080") == (1920, 1080)
    for bad in ("1920", "1920x", "big", "10x10"):
        with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
            sources.parse_size(bad)


def test_a_still_virtual_table_renders_the_frames_it_would_render_afresh_and_a_change_shows():
    # The virtual table keeps a still scene's frame through the lens and adds only each frame's noise
    # (most frames of a demo game are of a still table). That must never show a stale table: every
    # frame equals the one composed afresh, before and after cards and hands come and go.
    from companion.scan.virtual_camera import Look

    def frames(afresh: bool) -> list[np.ndarray]:
        table = VirtualTable(640, 360, seed=3, look=Look(jpeg_quality=80))
        for i in range(3):
            table.place_code(f"CARD-{i}", (250 + i * 120, 300), 10 * i, label=f"card {i}")
        shown, hand = [], 0
        for k in range(10):
            if afresh:
                table._scene += 1  # a new scene every frame: nothing kept
            if k == 2:
                hand = table.add_hand((300, 300))
            if k == 4:
                table.move_hand(hand, (330, 310), 5)
            if k == 6:
                table.remove_hand(hand)
            if k == 8:
                table.remove("CARD-1")
            shown.append(table.render())
        return shown

    kept, afresh = frames(False), frames(True)
    assert all(np.array_equal(a, b) for a, b in zip(kept, afresh, strict=True))
    assert not np.array_equal(kept[7], kept[8])  # the card taken away is gone from the next frame
    assert not np.array_equal(kept[0], kept[1])  # and a still table's frames still differ by their noise
