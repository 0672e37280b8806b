"""The camera watchdog: a source that stalls or raises is noticed, reported and reopened with
backoff while the game goes on, and a camera unplugged mid-game counts no card twice."""
from __future__ import annotations

import threading
import time

import pytest

from companion.scan.pipeline import ScanPipeline
from companion.scan.sources import FrameSource, SourceError, VirtualTableSource
from companion.scan.virtual_table import VirtualTable
from companion.scan.zones import ZoneMap

from .scan_helpers import card, flat

FAST = dict(stall_timeout=0.4, backoff=(0.05, 0.2))


class FaultySource(FrameSource):
    """The virtual table, behind a cable the test can pull: it stalls or raises on demand."""

    def __init__(self, table: VirtualTable, fps: float = 30):
        self.inner = VirtualTableSource(table, fps)
        self.name = "faulty camera"
        self.mode = "ok"               # "ok" | "stall" | "raise"
        self.open_failures = 0         # how many next open() calls fail (still unplugged)
        self.dark_after_open = 0       # frames of black while auto-exposure settles after a replug
        self.opens = 0
        self.closes = 0
        self._dark = 0
        self._release = threading.Event()

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
            self._release.wait(10)  # a driver stuck in a read: only close() gets it out
            return None
        frame = self.inner.read()
        if self._dark > 0:
            self._dark -= 1
            frame[...] = 0
        return frame

    def close(self):
        self.closes += 1
        self._release.set()


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def running():
    """A pipeline running in its thread over a faulty source; yields (pipeline, source, table, events)."""
    table = VirtualTable(640, 360, seed=3)
    source = FaultySource(table)
    events = []
    zones = ZoneMap.for_game("bom-battle", 2)
    pipeline = ScanPipeline(source, "zxing", zones, "bom-battle", lambda k, d: events.append((k, d)), **FAST)
    pipeline.start()
    assert wait_for(lambda: pipeline.stats()["state"] == "running" and pipeline.stats()["frames"] > 3)
    yield pipeline, source, table, events
    pipeline.stop()


def test_a_stalled_source_is_reported_within_the_timeout_and_reopened(running):
    pipeline, source, _, _ = running
    source.mode = "stall"
    stalled_at = time.monotonic()
    assert wait_for(lambda: pipeline.stats()["state"] in ("stalled", "reopening"), timeout=3)
    assert time.monotonic() - stalled_at < 5.0 + 1.0  # noticed within the watchdog's limit
    assert "no frame from faulty camera" in pipeline.stats()["last_error"]
    source.mode = "ok"
    assert wait_for(lambda: pipeline.stats()["state"] == "running" and pipeline.stats()["reopens"] >= 1)
    frames = pipeline.stats()["frames"]
    assert wait_for(lambda: pipeline.stats()["frames"] > frames + 3)  # frames flow again
    assert source.closes >= 1  # the stuck read was released by closing the source


def test_a_source_that_raises_is_reported_and_reopened_with_growing_backoff(running):
    pipeline, source, _, _ = running
    source.open_failures = 3   # still unplugged for the next three attempts
    source.mode = "raise"
    assert wait_for(lambda: pipeline.stats()["state"] in ("failed", "reopening"), timeout=2)
    assert "unplugged" in pipeline.stats()["last_error"]
    time.sleep(0.2)
    source.mode = "ok"
    assert wait_for(lambda: pipeline.stats()["state"] == "running", timeout=5)
    assert pipeline.stats()["reopens"] >= 4  # three failed opens, then the one that worked


def test_the_service_runs_on_while_the_camera_is_out(running):
    pipeline, source, _, _ = running
    source.mode = "raise"
    source.open_failures = 1000
    assert wait_for(lambda: pipeline.stats()["state"] in ("failed", "reopening"))
    # stats keep answering (the dashboard's devices panel) and the thread keeps retrying
    retries = pipeline.stats()["reopens"]
    assert wait_for(lambda: pipeline.stats()["reopens"] > retries + 1)
    assert pipeline.stats()["next_retry_in_s"] is None or pipeline.stats()["next_retry_in_s"] <= 0.2


def test_a_camera_unplugged_and_replugged_mid_game_counts_no_card_twice():
    table = VirtualTable(1280, 720, seed=4)
    zones = ZoneMap.for_game("bom-battle", 2)
    source = FaultySource(table)
    events = []
    pipeline = ScanPipeline(source, "zxing", zones, "bom-battle", lambda k, d: events.append((k, d)), **FAST)
    for seat, card_id in ((1, "GD500"), (2, "BO300")):
        table.place(card(card_id), zones.slot(f"seat:{seat}", 0), 3)
    pipeline.start()
    try:
        assert wait_for(lambda: len(events) == 2)
        source.mode = "raise"          # the USB cable comes out for over a second...
        source.open_failures = 2
        source.dark_after_open = 8     # and once back, shows black for a quarter second
        time.sleep(1.2)                # ...much longer than a card's vanish time (0.5 s)
        table.place(card("FAITH"), zones.slot("seat:1", 1), 0)   # a card played meanwhile
        source.mode = "ok"             # ...and goes back in
        assert wait_for(lambda: pipeline.stats()["state"] == "running" and pipeline.stats()["reopens"] >= 1)
        time.sleep(1.0)
    finally:
        pipeline.stop()
    assert flat(events) == [("card_seen", "seat:1", "FAITH#1"), ("card_seen", "seat:1", "GD500#1"),
                            ("card_seen", "seat:2", "BO300#1")]
