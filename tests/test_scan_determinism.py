"""The same scene gives the same reads on a quiet machine and a busy one: second looks are
budgeted in work (pixels handed to a reader), never in time."""
from __future__ import annotations

import subprocess
import sys

import cv2

from companion.bench.scan_scenes import Scene, scene_seed, build_table
from companion.scan.decoders import make_decoder
from companion.scan.incremental import IncrementalDecoder

BUSY_LOOP = "while True: pass"


def blurred_still_table(frames: int) -> list:
    """A seeded still table of small defocused tags (2.0 px a module, 1280x720): most of its tags
    are read only by second looks, over several frames."""
    scene = Scene(1280, 720, 20, "blur", 2.0, scene_seed(1, 1280, 20, "blur", 2.0))
    table, _, _ = build_table(scene)
    return [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(frames)]


def reads_per_frame(frames: list) -> tuple[list[list[str]], int]:
    """What the live pipeline's decoder (its default budgets) holds after each frame, and its second looks."""
    decoder = IncrementalDecoder(make_decoder("zxing"))
    reads = [sorted(d.text for d in decoder.decode(gray)) for gray in frames]
    return reads, decoder.stats.second_looks


def test_a_blurred_still_table_gives_the_same_reads_frame_by_frame_with_both_cores_busy():
    frames = blurred_still_table(12)
    quiet, looks = reads_per_frame(frames)
    busy = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(2)]
    try:
        loaded, looks_loaded = reads_per_frame(frames)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert looks > 0 and len(quiet[-1]) > len(quiet[0])   # second looks read tags the first frame did not
    assert loaded == quiet
    assert looks_loaded == looks
