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
    assert_worker_reads_what_in_place_reads_a_frame_later()


def test_the_whole_frame_pass_reads_each_tile_knowing_what_looks_in_place_would_have_read(monkeypatch):
    """What keeps the worker a frame behind the looks in the frame, however the budget falls: the
    last frame's looks land before this frame's tile of the whole-frame pass, as looks in the frame
    do, so each tile paints out and notes places against the same known codes and places in both
    modes. (Landed after the tile, the worker's tile of frame 4 knew none of the 4 codes the looks
    had read, noted a place the in-frame tile did not, the places were dealt into other shares, and
    with the deconvolved rungs weighed 3, their measured cost, the worker read other codes.)"""
    seen: list[tuple[int, list[str], int]] = []
    decode_tile = IncrementalDecoder._decode_tile

    def noted(decoder, gray, small, n):
        seen.append((decoder._frame, sorted(k.detection.text for k in decoder._known), len(decoder._places)))
        decode_tile(decoder, gray, small, n)

    monkeypatch.setattr(IncrementalDecoder, "_decode_tile", noted)
    frames = blurred_still_table(10, 1920, 1080)
    reads_per_frame(frames, IncrementalDecoder(make_decoder("zxing")))
    in_place, seen[:] = list(seen), []
    reads_per_frame(frames)
    assert len(in_place) >= 3 and any(known for _, known, _ in in_place)
    assert seen == in_place


def assert_worker_reads_what_in_place_reads_a_frame_later() -> None:
    # 14 frames: the looks in the frame read this table whole by frame 10 (7 before each reader
    # call counted its fixed cost), and the comparison wants it whole a few frames before the end
    frames = blurred_still_table(14, 1920, 1080)
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


def test_the_reads_do_not_depend_on_whether_the_frame_thread_waits_for_the_looks():
    """`companion bench scan --looks-alone` has the frame thread wait for each frame's looks before
    the next frame, so that they run with nothing beside them: the reads are those of a frame
    thread that goes straight on (the looks still land on the next frame, not when waited for)."""
    frames = blurred_still_table(12)
    straight, looks = reads_per_frame(frames, ScanPipeline(None, "zxing", look_workers=3).decoder)
    decoder = ScanPipeline(None, "zxing", look_workers=3).decoder
    waited = []
    for gray in frames:
        waited.append(sorted(d.text for d in decoder.decode(gray)))
        decoder.wait_for_looks()
    assert looks > 0 and len(straight[-1]) > len(straight[0])
    assert waited == straight
    assert decoder.stats.second_looks == looks


def test_warming_the_look_workers_up_changes_no_read():
    """The service's start warms each look worker up (a narrowing and a climb on a made-up texture,
    so that its first real share does not pay a fresh thread's first arrays): the workers are
    running before the first frame, and the table reads as a pipeline that was not warmed, frame
    by frame, with the same looks (the warm-up climbs a copy of the ladder: nothing it tried
    counts as learned on this camera)."""
    frames = blurred_still_table(12)
    cold, looks_cold = reads_per_frame(frames, ScanPipeline(None, "zxing", look_workers=3).decoder)
    pipeline = ScanPipeline(None, "zxing", look_workers=3)
    pipeline.warm_up()
    assert [t.name for w in pipeline.decoder._workers for t in w._threads] == [f"second-looks-{n}_0" for n in range(3)]
    assert pipeline.decoder.ladder.reads_by_rung == {}
    warm, looks_warm = reads_per_frame(frames, pipeline.decoder)
    assert looks_cold > 0 and len(cold[-1]) > len(cold[0])
    assert warm == cold
    assert looks_warm == looks_cold
