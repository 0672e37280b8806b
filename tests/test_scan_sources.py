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
