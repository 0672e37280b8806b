"""The tracker's debouncing: a glimpse is not a play, a passing hand is not a take-back, and a
card on a seat line does not bounce between seats. Time and sightings are driven by the test."""
from __future__ import annotations

from companion.scan.tracker import Sighting, Tracker, TrackerSettings
from companion.scan.zones import ZoneMap

from .scan_helpers import Table, card, flat

FRAME = 1 / 30


def run(tracker, frames, start=0.0):
    """frames: a list of sighting lists, one per frame 1/30 s apart. Returns every event."""
    events = []
    for i, sightings in enumerate(frames):
        events += tracker.update(sightings, start + i * FRAME)
    return events


def seat_tracker(seats=2):
    zones = ZoneMap.for_game("bom-battle", seats)
    return Tracker(zones), zones


def test_a_card_flickering_every_other_frame_never_becomes_a_play():
    tracker, zones = seat_tracker()
    here = Sighting("GD500#1", zones.slot("seat:1", 0))
    frames = [[here] if i % 2 == 0 else [] for i in range(90)]  # three seconds of flicker
    assert run(tracker, frames) == []


def test_two_consecutive_frames_make_a_play():
    tracker, zones = seat_tracker()
    here = Sighting("GD500#1", zones.slot("seat:1", 0))
    assert run(tracker, [[here], [here]]) == [("card_seen", {"zone": "seat:1", "card": "GD500#1"})]


def test_a_card_missed_for_just_under_the_vanish_time_again_and_again_is_played_once():
    tracker, zones = seat_tracker()
    here = Sighting("GD500#1", zones.slot("seat:1", 0))
    gap = int(0.45 / FRAME)  # 13 frames = 0.43 s absent, under the 0.5 s vanish time
    frames = ([[here]] * 2 + [[]] * gap + [[here]]) * 8
    assert run(tracker, frames) == [("card_seen", {"zone": "seat:1", "card": "GD500#1"})]


def test_absent_beyond_the_vanish_time_is_a_take_back():
    tracker, zones = seat_tracker()
    here = Sighting("GD500#1", zones.slot("seat:1", 0))
    frames = [[here]] * 2 + [[]] * 17 + [[here]] * 2  # 0.57 s away, then back
    assert run(tracker, frames) == [("card_seen", {"zone": "seat:1", "card": "GD500#1"}),
                                    ("card_gone", {"zone": "seat:1", "card": "GD500#1"}),
                                    ("card_seen", {"zone": "seat:1", "card": "GD500#1"})]


def test_a_card_lying_on_the_line_between_two_seats_stays_in_one():
    tracker, zones = seat_tracker(seats=4)  # near row: seat 2 (left) | seat 1 (right)
    line_x = zones.by_name["seat:1"].x
    y = zones.by_name["seat:1"].y + 100
    jitter = [Sighting("GD500#1", (line_x + (4 if i % 2 else -4), y)) for i in range(60)]
    events = run(tracker, [[s] for s in jitter])
    assert len(events) == 1 and events[0][0] == "card_seen"


def test_a_card_pushed_clearly_into_the_next_seat_moves_there():
    tracker, zones = seat_tracker(seats=4)
    line_x = zones.by_name["seat:1"].x
    y = zones.by_name["seat:1"].y + 100
    frames = [[Sighting("GD500#1", (line_x + 30, y))]] * 3 + [[Sighting("GD500#1", (line_x - 30, y))]] * 4
    assert run(tracker, frames) == [("card_seen", {"zone": "seat:1", "card": "GD500#1"}),
                                    ("card_gone", {"zone": "seat:1", "card": "GD500#1"}),
                                    ("card_seen", {"zone": "seat:2", "card": "GD500#1"})]


def test_the_same_tag_in_two_zones_is_two_plays_and_both_are_reported():
    tracker, zones = seat_tracker()
    a = Sighting("GD500#1", zones.slot("seat:1", 0))
    b = Sighting("GD500#1", zones.slot("seat:2", 0))
    assert flat(run(tracker, [[a, b]] * 3)) == [("card_seen", "seat:1", "GD500#1"), ("card_seen", "seat:2", "GD500#1")]


def test_after_an_outage_cards_get_a_fresh_absence_window():
    tracker, zones = seat_tracker()
    here = Sighting("GD500#1", zones.slot("seat:1", 0))
    run(tracker, [[here]] * 3)
    tracker.resume(10.0)  # the camera was out from 0.1 s to 10 s
    assert tracker.update([], 10.2) == []  # a first empty frame right after is not a take-back
    assert tracker.update([here], 10.25) == []


def test_positions_are_smoothed_and_settings_are_configurable():
    zones = ZoneMap.for_game("bom-battle", 2)
    tracker = Tracker(zones, TrackerSettings(appear_frames=3, smoothing=0.5))
    x, y = zones.slot("seat:1", 0)
    frames = [[Sighting("GD500#1", (x + (2 if i % 2 else -2), y))] for i in range(3)]
    assert run(tracker, frames[:2]) == []           # three frames needed now
    assert len(run(tracker, frames[2:], 2 * FRAME)) == 1
    assert abs(tracker.tracked()[0]["x_mm"] - x) < 2  # jitter of +-2 mm averaged down


def test_a_card_flicking_in_and_out_of_the_camera_view_makes_no_ghost_play():
    """The real path: the card is on the table one frame, off the next, for two seconds."""
    t = Table(seats=2, width=960, height=540)
    t.frames(2)
    events = []
    for i in range(60):
        if i % 2 == 0:
            t.put(card("GD500"), "seat:1")
        else:
            t.table.remove(card("GD500"))
        events += t.frames(1)
    assert events == []
