"""The camera watchdog: a source that stalls or raises is noticed, reported and reopened with
backoff while the game goes on, and a camera unplugged mid-game counts no card twice.

The pipeline runs on the camera's time (a ManualClock moved 1/30 s by each frame the source
delivers, and by the test), so a silence or an outage lasts exactly what the test says however
slow the machine is."""
from __future__ import annotations

import threading

import pytest

from companion.scan.pipeline import ScanPipeline
from companion.scan.sources import FrameSource, SourceError, VirtualTableSource
from companion.scan.virtual_table import VirtualTable
from companion.scan.zones import ZoneMap

from .scan_helpers import card, flat
from .timing import ManualClock, wait_for

FAST = dict(stall_timeout=0.4, backoff=(0.05, 0.2))


class FaultySource(FrameSource):
    """The virtual table, behind a cable the test can pull: it stalls or raises on demand. Each
    frame it delivers moves ``clock`` (if given) on by a frame's time."""

    def __init__(self, table: VirtualTable, fps: float = 30, clock: ManualClock | None = None):
        self.inner = VirtualTableSource(table, fps)
        self.clock = clock
        self.name = "faulty camera"
        self.mode = "ok"               # "ok" | "stall" | "raise"
        self.open_failures = 0         # how many next open() calls fail (still unplugged)
        self.dark_after_open = 0       # frames of black while auto-exposure settles after a replug
        self.opens = 0
        self.closes = 0
        self._dark = 0
        self._release = threading.Event()
        self.stuck = threading.Event()  # a read is stuck (mode "stall")

    def open(self):
        if self.open_failures > 0:
            self.open_failures -= 1
            raise SourceError("cannot open camera (unplugged)")
        self.opens += 1
        self._dark = self.dark_after_open
        self._release.clear()
        self.inner.open()

    def read(self):
        if self.mode == "raise":
            raise SourceError("camera stopped delivering frames (unplugged?)")
        if self.mode == "stall":
            self.stuck.set()
            self._release.wait(10)  # a driver stuck in a read: only close() gets it out
            return None
        frame = self.inner.read()
        if self.clock is not None:
            self.clock.advance(1 / self.inner.fps)
        if self._dark > 0:
            self._dark -= 1
            frame[...] = 0
        return frame

    def close(self):
        self.closes += 1
        self._release.set()


def camera(table: VirtualTable, events: list, **options) -> tuple[ScanPipeline, FaultySource, ManualClock]:
    """A pipeline over a faulty source, both on the camera's clock (not started)."""
    clock = ManualClock()
    source = FaultySource(table, clock=clock)
    zones = ZoneMap.for_game("bom-battle", 2)
    pipeline = ScanPipeline(source, "zxing", zones, "bom-battle", lambda k, d: events.append((k, d)), clock=clock,
                            **FAST, **options)
    return pipeline, source, clock


def running_normally(pipeline) -> bool:
    return pipeline.stats()["state"] == "running"


@pytest.fixture
def running():
    """A pipeline running in its thread over a faulty source; yields (pipeline, source, clock)."""
    pipeline, source, clock = camera(VirtualTable(640, 360, seed=3), [])
    pipeline.start()
    wait_for(lambda: running_normally(pipeline) and pipeline.stats()["frames"] > 3, "the camera running")
    yield pipeline, source, clock
    pipeline.stop()


def test_a_stalled_source_is_reported_once_silent_for_the_timeout_and_reopened(running):
    pipeline, source, clock = running
    source.mode = "stall"
    wait_for(source.stuck.is_set, "a read to get stuck")
    # the pipeline takes the frames read before, then looks at the time with nothing new
    clock.wait_for_reads(2, "the pipeline to take the last frame")
    clock.advance(FAST["stall_timeout"] - 0.1)  # silent, but not yet for the stall timeout
    clock.wait_for_reads(2, "the pipeline to look at the time again")
    assert running_normally(pipeline), pipeline.stats()["last_error"]
    source.mode = "ok"  # the camera could deliver again, but the stuck read stays stuck
    clock.advance(0.2)  # silent for longer than the stall timeout
    wait_for(lambda: pipeline.stats()["state"] in ("stalled", "reopening"), "the stall to be reported")
    assert "no frame from faulty camera for 0.5 s" in pipeline.stats()["last_error"]
    wait_for(lambda: running_normally(pipeline) and pipeline.stats()["reopens"] >= 1, "the camera reopened")
    frames = pipeline.stats()["frames"]
    wait_for(lambda: pipeline.stats()["frames"] > frames + 3, "frames flowing again")
    assert source.closes >= 1  # the stuck read was released by closing the source


def test_a_source_that_raises_is_reported_and_reopened_with_growing_backoff(running):
    pipeline, source, _ = running
    source.open_failures = 3   # still unplugged for the next three attempts
    source.mode = "raise"
    wait_for(lambda: pipeline.stats()["state"] in ("failed", "reopening"), "the failure to be reported")
    assert "unplugged" in pipeline.stats()["last_error"]
    wait_for(lambda: source.open_failures == 0, "three attempts to reopen the unplugged camera")
    source.mode = "ok"
    wait_for(lambda: running_normally(pipeline), "the camera running again")
    assert pipeline.stats()["reopens"] >= 4  # three failed opens, then the one that worked


def test_the_service_runs_on_while_the_camera_is_out(running):
    pipeline, source, _ = running
    source.mode = "raise"
    source.open_failures = 1000
    wait_for(lambda: pipeline.stats()["state"] in ("failed", "reopening"), "the failure to be reported")
    # stats keep answering (the dashboard's devices panel) and the thread keeps retrying
    retries = pipeline.stats()["reopens"]
    wait_for(lambda: pipeline.stats()["reopens"] > retries + 1, "two more attempts to reopen")
    assert pipeline.stats()["next_retry_in_s"] is None or pipeline.stats()["next_retry_in_s"] <= 0.2


def test_a_camera_unplugged_and_replugged_mid_game_counts_no_card_twice():
    table = VirtualTable(1280, 720, seed=4)
    events = []
    pipeline, source, clock = camera(table, events)
    zones = pipeline.zones
    for seat, card_id in ((1, "GD500"), (2, "BO300")):
        table.place(card(card_id), zones.slot(f"seat:{seat}", 0), 3)
    pipeline.start()
    try:
        wait_for(lambda: len(events) == 2, "both cards seen")
        source.open_failures = 2
        source.dark_after_open = 8     # once back, it shows black for 8 frames (a quarter second)
        source.mode = "raise"          # the USB cable comes out...
        wait_for(lambda: source.open_failures == 0, "two attempts to reopen the unplugged camera")
        clock.advance(1.2)             # ...for over a second, much longer than a card's vanish time (0.5 s)
        table.place(card("FAITH"), zones.slot("seat:1", 1), 0)   # a card played meanwhile
        source.mode = "ok"             # ...and goes back in
        wait_for(lambda: running_normally(pipeline) and pipeline.stats()["reopens"] >= 1, "the camera back")
        wait_for(lambda: ("card_seen", "seat:1", "FAITH#1") in flat(events), "the card played meanwhile")
        frames = pipeline.stats()["frames"]
        wait_for(lambda: pipeline.stats()["frames"] >= frames + 10, "ten more frames of the table")
    finally:
        pipeline.stop()
    assert flat(events) == [("card_seen", "seat:1", "FAITH#1"), ("card_seen", "seat:1", "GD500#1"),
                            ("card_seen", "seat:2", "BO300#1")]


def test_a_colour_camera_s_frames_reach_the_scanner_grey_turned_on_the_reader_thread():
    """A USB webcam or the virtual table hands over colour frames: the reader thread turns each
    grey (what the decoders read, pixel for pixel as OpenCV's conversion) and works out its block
    means (what the decoder and the motion map compare frame to frame), so the thread that decodes
    never spends its frame's time on either. The calibration preview shows that grey picture."""
    import cv2
    import numpy as np

    from companion.scan.occlusion import block_means

    taken, prepared = [], []

    class Recording(ScanPipeline):
        def prepare(self, frame):
            means = super().prepare(frame)
            prepared.append((means, threading.current_thread().name))
            return means

        def process(self, frame, now=None, prepared=None):
            taken.append((frame, threading.current_thread().name, prepared))
            return super().process(frame, now, prepared)

    colour = VirtualTable(640, 360, seed=3).render()
    assert colour.ndim == 3   # the camera's frame is colour

    class Webcam(FrameSource):   # the same colour frame each time
        name = "webcam"

        def read(self):
            return colour.copy()

    pipeline = Recording(Webcam(), "zxing", ZoneMap.for_game("bom-battle", 2), "bom-battle")
    pipeline.start()
    try:
        wait_for(lambda: len(taken) >= 2, "two frames taken")
    finally:
        pipeline.stop()
    frame, thread, means = taken[0]
    assert frame.ndim == 2 and not thread.startswith("scan-source")
    assert np.array_equal(frame, cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))
    assert pipeline.snapshot()[0].ndim == 2
    assert all(name.startswith("scan-source") for _, name in prepared)
    assert means is not None and np.array_equal(means, block_means(frame, pipeline.decoder.cell))
    assert pipeline.decoder.last_small is taken[-1][2]   # the decoder compared the reader's, not its own
