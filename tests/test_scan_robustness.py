"""Damaged tags never read as a wrong card; the incremental decoder decodes only what changed and
looks again where a code was expected; the benchmark scores what it claims to."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from card_tags import payload as tag_payload
from card_tags.payload import CardRef, encode
from companion.bench.scan_scenes import Scene, build_table, clip_frames, score_frame, scene_seed
from companion.scan.calibration import detect_markers, marker_boxes
from companion.scan.decoders import make_decoder
from companion.scan.incremental import IncrementalDecoder
from companion.scan.virtual_camera import Camera, Look
from companion.scan.virtual_cards import DAMAGE_KINDS
from companion.scan.virtual_table import TagTruth, VirtualTable, random_layout

from .scan_helpers import Table, card


def damaged_table(kind: str, seed: int, blur: float = 0.7):
    table = VirtualTable(1280, 720, seed=seed, camera=Camera(px_per_mm=1.3, look_at_mm=(450, 300)),
                         look=Look(blur_sigma=blur, noise_sigma=3))
    refs = [CardRef("bom-battle", f"GD{n}00", 1) for n in range(1, 7)]
    for ref, xy, angle in random_layout(table, refs, np.random.default_rng(seed)):
        table.place(ref, xy, angle, damage=kind)
    return table


@pytest.mark.parametrize("kind", DAMAGE_KINDS)
def test_a_torn_scratched_half_covered_or_smudged_tag_never_reads_as_another_card(kind):
    """A wrong read is worse than no read: whatever a spoiled tag yields, it is never a valid
    tag of a card other than the one printed on it (for every backend and the pipeline)."""
    for seed in (1, 2):
        table = damaged_table(kind, seed)
        frame, truth = table.render_with_truth()
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        printed = {t.text for t in truth}
        readers = [make_decoder(n).decode for n in ("zxing", "pyzbar", "opencv")]
        readers.append(IncrementalDecoder(make_decoder("zxing"), look_share=float("inf"), look_floor_px=float("inf"), max_looks=32).decode)
        for read in readers:
            for d in read(gray):
                try:
                    tag_payload.decode(d.text)
                except tag_payload.PayloadError:
                    continue  # the check character caught it: harmless
                assert d.text in printed, f"{kind} tag read as {d.text}"


def test_damaged_tags_in_view_make_no_play_and_are_counted():
    t = Table(seats=2)
    good = encode(card("GD500"))
    t.table.place(card("GD500"), t.zones.slot("seat:1", 0), 0, damage="torn")
    t.table.place_code(good[:-1] + ("Z" if good[-1] != "Z" else "Y"), t.zones.slot("seat:2", 0), 0)  # misprinted
    assert t.seconds(0.5) == []
    assert t.pipeline.stats()["damaged_tags"] == 1


def test_a_steady_table_is_not_decoded_again_and_a_moved_card_only_where_it_moved():
    t = Table(seats=3)
    for seat in (1, 2, 3):
        t.put(card(f"GD{seat}00"), f"seat:{seat}")
    t.frames(3)
    stats = t.pipeline.decoder.stats
    full, regions = stats.full_decodes, stats.regions
    t.frames(10)  # nothing moves; only the sensor noise changes
    assert (stats.full_decodes, stats.regions) == (full, regions)
    assert len(t.pipeline.snapshot()[1]) == 3  # the three cards still reported, carried over
    t.put(card("GD200"), "seat:2", 1)  # one card slides to the next slot
    t.frames(1)
    assert stats.full_decodes == full and stats.regions > regions
    assert stats.last_dirty_fraction < 0.1


def test_a_card_moved_among_twenty_is_read_where_it_moved_without_reading_its_neighbours_again():
    """A dense 1080p table of 20 overlapping cards; one card moves. The frame decodes the places
    that changed and the codes they cut that changed, each in its own box: under 8% of the frame
    (6% here; every code they cut, in one bounding box grown until it cut none, took 30%: 11-14 ms
    here), and the neighbours that lie still stay read without being read again."""
    scene = Scene(1920, 1080, 20, "plain", 3.0, scene_seed(1, 1920, 20, "plain", 3.0))
    _, frames = clip_frames(scene, 12)   # the card moves on frame 6
    # (the periodic whole-frame pass put off: its tiles are not the region decode counted here)
    decoder = IncrementalDecoder(make_decoder("zxing"), sweep_tiles=1, full_every=1000)
    for gray, _ in frames[:6]:
        decoder.decode(gray)
    handed, reads = [], []
    decode = decoder.decoder.decode_with_misses

    def counted(crop, *args, **kwargs):
        found, misses = decode(crop, *args, **kwargs)
        handed.append(crop.size)
        reads.extend(d.text for d in found)
        return found, misses

    decoder.decoder.decode_with_misses = counted
    gray, truth = frames[6]
    before = {d.text: d.center for d in decoder.decode(frames[5][0])}
    handed.clear(), reads.clear()
    after = {d.text: d.center for d in decoder.decode(gray)}
    moved = {t for t in before if abs(after[t][0] - before[t][0]) + abs(after[t][1] - before[t][1]) > 5}
    assert len(moved) == 1 and set(after) == {t.text for t in truth if t.readable}
    assert sum(handed) < 0.08 * gray.size
    assert set(reads) == moved


def test_most_of_the_frame_changing_decodes_the_whole_frame():
    t = Table(seats=2)
    t.put(card("GD500"), "seat:1")
    t.frames(2)
    full = t.pipeline.decoder.stats.full_decodes
    t.table.set_look(Look(blur_sigma=0.7, noise_sigma=3, vignette=0.7))  # the room light changes
    t.frames(1)
    assert t.pipeline.decoder.stats.full_decodes == full + 1
    assert [s.text for s in t.pipeline.snapshot()[1]] == [encode(card("GD500"))]


def test_the_pipeline_reads_small_soft_tags_that_a_single_decoder_call_misses():
    """At 2.5 pixels per module with the camera slightly out of focus, zxing-cpp alone reads
    almost none; the pipeline's second looks (other binarisers, ZBar, upscaled and sharpened
    crops) read them all. (Unbounded here: the time budget spreads them over frames.)"""
    scene = Scene(1280, 720, 6, "blur", 2.5, scene_seed(1, 1280, 6, "blur", 2.5))
    _, frames = clip_frames(scene, 1)
    gray, truth = frames[0]
    readable = {t.text for t in truth if t.readable}
    alone = {d.text for d in make_decoder("zxing").decode(gray)}
    piped = {d.text for d in IncrementalDecoder(make_decoder("zxing"), look_share=float("inf"), look_floor_px=float("inf")).decode(gray)}
    assert len(alone & readable) <= 2
    assert piped >= readable


def test_second_looks_per_frame_are_bounded_and_the_rest_wait():
    table, _, _ = build_table(Scene(1280, 720, 6, "blur", 2.5, scene_seed(1, 1280, 6, "blur", 2.5)))
    frames = [cv2.cvtColor(table.render(), cv2.COLOR_BGR2GRAY) for _ in range(4)]  # nothing moves
    decoder = IncrementalDecoder(make_decoder("zxing"), max_looks=2, look_share=float("inf"), look_floor_px=float("inf"))
    decoder.ignore = marker_boxes(detect_markers(frames[0]))
    first = decoder.decode(frames[0])
    assert decoder.stats.second_looks <= 2 and decoder.stats.deferred >= 1
    later = [d for f in frames[1:] for d in decoder.decode(f)]
    assert decoder.stats.second_looks <= 2 * 4
    assert len({d.text for d in later}) > len({d.text for d in first})


def truth(text, x, y, readable=True):
    corners = np.array([[x, y], [x + 60, y], [x + 60, y + 60], [x, y + 60]], np.float32)
    return TagTruth(text, None, corners, 60 / 21, 1.0 if readable else 0.5, None)


def test_the_benchmark_counts_a_valid_tag_read_where_none_lies_as_a_false_read():
    a, b = encode(card("GD100")), encode(card("GD200"))
    lying = [truth(a, 100, 100), truth(b, 300, 100, readable=False)]
    score = score_frame([(a, (130, 130)), (b, (330, 130)), (a, (530, 130)), ("TC1:BM:GD300:1:Q", (700, 100))], lying)
    assert (score.readable, score.read) == (1, 1)
    assert (score.covered, score.covered_read) == (1, 1)
    # GD100 read where nothing lies is a false read; a text failing its check character is not
    assert score.false_reads == 1 + (tag_payload.check_char("TC1:BM:GD300:1") == "Q")


def test_benchmark_scenes_are_reproducible_from_their_seed():
    scene = Scene(1280, 720, 6, "hand", 3.0, 77)
    a, _, _ = build_table(scene)
    b, _, _ = build_table(scene)
    assert np.array_equal(a.render(), b.render())
    _, tags = a.render_with_truth()
    assert any(t.visible < 0.999 for t in tags)  # the hand really covers a tag
