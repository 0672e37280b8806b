"""The same scene gives the same reads on a quiet machine and a busy one: second looks are
budgeted in work (pixels handed to a reader), never in time, and the live pipeline's, which run
on a worker thread beside the frame's decode, land on the next frame whatever the worker took."""
from __future__ import annotations

import subprocess
import sys

import cv2

from companion.bench.scan_scenes import Scene, scene_seed, build_table
from companion.scan.decoders import make_decoder
from companion.scan.incremental import IncrementalDecoder
from companion.scan.pipeline import ScanPipeline

BUSY_LOOP = "while True: pass"


def blurred_still_table(frames: int, width: int = 1280, height: int = 720) -> list:
    """A seeded still table of small defocused tags (2.0 px a module): most of its tags are read
    only by second looks, over several frames."""
    scene = Scene(width, height, 20, "blur", 2.0, scene_seed(1, width, 20, "blur", 2.0))
    table, _, _ = build_table(scene)
    return [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(frames)]


def reads_per_frame(frames: list, decoder=None) -> tuple[list[list[str]], int]:
    """What a decoder (default: the live pipeline's, as it builds it) holds after each frame, and its second looks."""
    decoder = decoder or ScanPipeline(None, "zxing").decoder
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


def test_second_looks_on_the_worker_thread_read_what_looks_in_place_read_one_frame_later():
    """The live pipeline hands each frame's second looks to a worker thread (so that no frame
    waits for them) and takes their reads on the next frame: a blurred 1080p table, whose tags
    only second looks read, is read as the looks run in the frame read it, a frame later."""
    frames = blurred_still_table(12, 1920, 1080)
    in_place, _ = reads_per_frame(frames, IncrementalDecoder(make_decoder("zxing")))
    apart, _ = reads_per_frame(frames)
    assert len(in_place[-2]) == 20 and not in_place[0]
    for frame, read in enumerate(in_place[:-1]):
        assert set(apart[frame + 1]) >= set(read), f"frame {frame + 1}"


def test_the_reads_do_not_depend_on_how_many_threads_run_the_second_looks():
    """A frame's looks are cut into shares by a fixed rule, each with its part of the budget and
    its own copy of the ladder's learning: one worker thread (a 2-core machine) or three (a Pi 4)
    run the same shares, so the same table gives the same reads frame by frame."""
    frames = blurred_still_table(12)
    one, looks_one = reads_per_frame(frames, ScanPipeline(None, "zxing", look_workers=1).decoder)
    three, looks_three = reads_per_frame(frames, ScanPipeline(None, "zxing", look_workers=3).decoder)
    assert looks_one > 0 and len(one[-1]) > len(one[0])
    assert three == one
    assert looks_three == looks_one
