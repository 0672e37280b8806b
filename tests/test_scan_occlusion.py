"""A hand over a card is not a take-back, even while the service drops frames; a card really
taken away still is one. (`companion bench scan --crossings 1000` plays a thousand crossings.)"""
from __future__ import annotations

import threading

import cv2
import numpy as np

from companion.bench import crossings
from companion.bench.crossings import run_crossings
from companion.scan.incremental import SWEEP_TILE_PX
from companion.scan.occlusion import MotionMap
from companion.scan.tracker import Sighting, Tracker
from companion.scan.zones import ZoneMap

GONE = ("card_gone", {"zone": "seat:1", "card": "GD500#1"})


def seen_card():
    zones = ZoneMap.for_game("bom-battle", 2)
    tracker = Tracker(zones)
    here = Sighting("GD500#1", zones.slot("seat:1", 0))
    assert len(tracker.update([here], 0.0) + tracker.update([here], 1 / 30)) == 1
    return tracker, here


def test_gaps_between_processed_frames_do_not_eat_the_vanish_window():
    """A busy service processes a frame every 0.3 s: two such frames without the card are not
    half a second of watching it gone."""
    tracker, here = seen_card()
    assert tracker.update([], 0.35) == [] and tracker.update([], 0.65) == []
    assert tracker.update([here], 0.95) == []


def test_a_card_unseen_over_enough_processed_frames_is_gone_even_when_frames_are_far_apart():
    tracker, _ = seen_card()
    events, now = [], 1 / 30
    for _ in range(8):
        now += 0.3
        events += tracker.update([], now)
    assert events == [GONE]


def test_a_card_under_a_moving_hand_for_one_and_a_half_seconds_stays():
    tracker, here = seen_card()
    under_hand = lambda xy: True  # noqa: E731 - the pipeline's motion map says a hand moves there
    events = [e for i in range(2, 47) for e in tracker.update([], i / 30, hidden=under_hand)]  # 1.5 s
    events += tracker.update([here], 47 / 30)
    assert events == []


def test_a_card_hidden_far_longer_than_that_is_taken_away():
    tracker, _ = seen_card()
    under_hand = lambda xy: True  # noqa: E731
    events = [e for i in range(2, 75) for e in tracker.update([], i / 30, hidden=under_hand)]  # 2.4 s
    assert events == [GONE]


def test_hands_crossing_cards_while_frames_are_dropped_take_nothing_away():
    """Rendered clips through the real pipeline: a hand sweeps over one of three cards and rests
    on it 0.3-1.5 s while the service drops up to 60% of frames; every fourth time it picks the
    card up instead, which must be reported gone within 1.2 s of the hand leaving."""
    report = run_crossings(8, seed=3, take_every=4)
    assert report.details == [] and report.false_gone == 0
    assert report.takes == 2 and report.takes_reported == 2
    assert report.frames_dropped > 0


def test_a_hand_covering_most_of_a_1080p_frame_takes_nothing_away_while_the_frame_is_read_a_tile_a_frame():
    """The camera close over three cards: the hand's box waits while it moves, and where its changes,
    still at last, take in most of the frame, the frame is read again as a sweep of tiles, one a
    frame (2 sweeps in these crossings; 49 when the hand's box was read on every frame it moved).
    A card the hand uncovers is read where it lies as soon as its place is still (not when its tile
    comes round: its absence counted meanwhile), a tile reads the places noted before the sweep
    began (a place noted while the hand left a card, painted out, hid it from every tile), and a
    sweep begun again while under way goes on with the tiles not read yet (begun from the first
    again on every frame of the hand, only the first was read). Each of these made a false
    card_gone in these six crossings."""
    report = run_crossings(14, seed=1, view="close")
    assert report.details == [] and report.false_gone == 0


def test_the_bench_s_replays_of_the_same_crossings_do_the_same_work_and_take_each_frame_s_median():
    """The crossings bench plays the same crossings again (``replays``) and takes each frame's CPU as
    the median of its replays: fair only because the pipeline decides nothing by the clock, so every
    replay reads the same frames the same way (run_crossings raises if a replay's events differ)."""
    report = run_crossings(3, seed=3, take_every=2, replays=3)
    assert report.replays == 3 and len(report.replay_worst_ms) == 3
    assert len(report.frame_cpu_ms) == report.frames_processed and report.takes_reported == report.takes == 1
    worst = report.as_dict()["frame_cpu_ms"]["worst"]
    assert 0 < worst <= max(report.replay_worst_ms)


def test_the_motion_map_knows_when_anything_last_moved_over_the_table():
    """What the settle reads (stillness.py, through ``moved``): a still table keeps its last
    movement and a frame of it moved nothing; a hand (a block that changed) moves it to that
    frame's time, and that frame moved."""
    still = np.full((96, 128), 120, np.uint8)
    motion = MotionMap()
    motion.update(still, 0.0)
    motion.update(still, 0.1)
    assert motion.last_moved == -np.inf and not motion.moved
    hand = still.copy()
    hand[40:60, 50:80] = 200
    motion.update(hand, 0.2)
    assert motion.moved
    motion.update(hand, 0.3)
    assert motion.last_moved == 0.2 and not motion.moved


def test_a_table_seen_close_reads_nothing_under_a_moving_hand_and_its_large_tags_at_half_a_side():
    """The camera close over three cards (1080p, 230 px tags: 11 px a module). A hand moving over
    them changes a box of 800,000 px on every frame; decoded each frame, that was 2-4 ms here for
    nothing read under the hand. Now a box larger than a sweep's tile waits while anything in it
    moves, and is read once still; and a table of such large tags is read at half a side (modules
    5.5 px: a quarter of the pixels). No card is reported gone meanwhile, and a card slid across the
    table is seen where it stopped."""
    clip = crossings._Clip(1, 3, *crossings.VIEWS["close"])
    clip.ticks(0.5)
    read_px: list[int] = []
    zxing = clip.pipeline.decoder.decoder
    plain = zxing.decode_with_misses

    def counted(gray, *args, **kwargs):
        if threading.current_thread() is threading.main_thread():   # the frame's own reads (not its looks')
            read_px[-1] += gray.size
        return plain(gray, *args, **kwargs)

    zxing.decode_with_misses = counted

    def tick() -> None:
        read_px.append(0)
        clip.tick()

    x, y = clip.slots[1]
    hand = clip.table.add_hand((x - 190, y - 17.5), 10.0, 1.2)
    for i in range(20):
        clip.table.move_hand(hand, (x - 190 + 19 * (i + 1), y - 17.5), 10.0)
        tick()
    moving = read_px[:]
    clip.table.remove_hand(hand)
    for _ in range(10):
        tick()
    ref, (cx, cy) = clip.refs[2], clip.slots[2]
    before = {s.ref: s.mat_xy for s in clip.pipeline.snapshot()[1]}[ref]
    for i in range(8):   # slid 80 mm towards the player, then left there
        clip.table.place(ref, (cx, cy + 10 * (i + 1)), 0.0)
        tick()
    for _ in range(10):
        tick()
    assert max(moving) <= SWEEP_TILE_PX   # while the hand moves: a tile's pixels at most (a tile of the periodic pass)
    assert max(read_px) <= 2 * SWEEP_TILE_PX   # the slid card's 860,000 px box, still at last, read as 215,000
    assert not [e for e in clip.events if e[1] == "card_gone"]
    seen = {s.ref: s.mat_xy for s in clip.pipeline.snapshot()[1]}
    assert len(seen) == 3 and np.hypot(seen[ref][0] - before[0], seen[ref][1] - before[1] - 80) < 5   # mm


def test_a_sliver_of_a_table_of_large_tags_is_read_as_it_is():
    """A box of a pixel or two (a tag at the frame's edge, mostly out of view) on a table whose tags
    are read at half a side: nothing to halve, read as it is, and nothing found there (no crash of the
    frame thread on an empty shrink)."""
    clip = crossings._Clip(1, 3, *crossings.VIEWS["close"])
    clip.ticks(0.2)
    decoder = clip.pipeline.decoder
    gray = cv2.cvtColor(clip.table.render(), cv2.COLOR_BGR2GRAY)
    assert decoder._read_scale() == 2
    for box in ((0, 0, 1, 300), (0, 0, 300, 1), (1919, 500, 1920, 1080), (10, 10, 25, 400)):
        assert decoder._read(gray, box, decoder.last_small) == []


def test_the_bench_reports_a_few_crossings_with_no_card_taken_away_without_a_traceback(capsys):
    """`companion bench scan --only crossings --crossings 3`: too few crossings for one to take a card
    away (the tenth does), so there is no time to report gone: the figures print, and say so."""
    from companion.cli import main

    assert main(["bench", "scan", "--only", "crossings", "--crossings", "3", "--crossing-replays", "1"]) == 0
    out = capsys.readouterr().out
    assert "cards taken away 0, reported gone 0" in out and "after the hand left" not in out
    assert "CPU a processed frame on the frame thread" in out
