"""The scan path end to end: real QR tags on the virtual table, the real decoder, the calibration
markers, zones and the tracker, down to the card_seen / card_gone events a game receives."""
from __future__ import annotations

import json

from card_tags.payload import encode

from .scan_helpers import Table, card, flat


def test_cards_played_in_three_seats_are_seen_once_each_in_their_seat():
    t = Table(seats=3)
    t.frames(2)  # the empty mat: calibration from the four markers
    assert t.pipeline.calibration.ready
    t.put(card("GD500"), "seat:1", 0, angle=8)
    t.put(card("BO300"), "seat:2", 0, angle=-12)
    t.put(card("GO1000"), "seat:3", 0, angle=180)
    t.put(card("FAITH", 2), "seat:3", 1, angle=95)
    events = t.seconds(0.5)
    assert flat(events) == [("card_seen", "seat:1", "GD500#1"), ("card_seen", "seat:2", "BO300#1"),
                            ("card_seen", "seat:3", "FAITH#2"), ("card_seen", "seat:3", "GO1000#1")]
    tracked = {c["card"]: c for c in t.pipeline.tracked()}
    x, y = t.zones.slot("seat:1", 0)
    # the position reported is the tag's centre, which sits 13.5 mm above the card's centre
    assert abs(tracked["GD500#1"]["x_mm"] - x) < 15 and abs(tracked["GD500#1"]["y_mm"] - y) < 25


def test_a_card_taken_away_is_gone_half_a_second_after_its_place_is_still():
    """The card vanishing is itself a change at its place (as a hand would be): it is hidden for
    the motion map's quarter second, then absent for half a second."""
    t = Table(seats=2)
    t.put(card("GD500"), "seat:1")
    assert t.seconds(0.3) == [("card_seen", {"zone": "seat:1", "card": "GD500#1"})]
    t.table.remove(card("GD500"))
    assert t.seconds(0.6) == []
    assert t.seconds(0.4) == [("card_gone", {"zone": "seat:1", "card": "GD500#1"})]


def test_a_card_slid_to_another_seat_leaves_one_zone_and_enters_the_other():
    t = Table(seats=2)
    t.put(card("BD700"), "seat:1")
    t.seconds(0.3)
    t.put(card("BD700"), "seat:2")
    assert t.seconds(0.3) == [("card_gone", {"zone": "seat:1", "card": "BD700#1"}),
                              ("card_seen", {"zone": "seat:2", "card": "BD700#1"})]


def test_foreign_codes_other_games_tags_and_damaged_tags_are_ignored_and_counted():
    t = Table(seats=2)
    t.table.place_code("https://ex.co", t.zones.slot("seat:1", 0), 10)
    t.table.place(card("M10", game="stratego"), t.zones.slot("seat:1", 1), -9)
    good = encode(card("GD500"))
    t.table.place_code(good[:-1] + ("A" if good[-1] != "A" else "B"), t.zones.slot("seat:2", 0), 0)  # check fails
    events = t.seconds(0.5)
    assert events == []
    stats = t.pipeline.stats()
    assert (stats["foreign_codes"], stats["other_game_tags"], stats["damaged_tags"]) == (1, 1, 1)
    whys = {entry["kind"]: entry["why"] for entry in stats["recent_ignored"]}
    assert "not a table-companion tag" in whys["foreign"]
    assert "stratego tag" in whys["other-game"]
    assert "check character" in whys["damaged"]
    assert stats["cards_tracked"] == 0
    json.dumps(stats)  # the devices panel receives it as JSON


def test_the_same_physical_tag_in_two_seats_is_reported_in_both_for_the_ruleset_to_flag():
    t = Table(seats=2)
    copy = card("GD500")
    t.put(copy, "seat:1")
    # a second print of the very same tag (a duplicated sticker) in seat 2's area
    t.table.place_code(encode(copy), t.zones.slot("seat:2", 0), 30, ref=copy, key="duplicate")
    assert flat(t.seconds(0.3)) == [("card_seen", "seat:1", "GD500#1"), ("card_seen", "seat:2", "GD500#1")]
    t.table.remove("duplicate")
    assert t.seconds(0.9) == [("card_gone", {"zone": "seat:2", "card": "GD500#1"})]


def test_no_zone_is_trusted_before_the_mat_markers_are_seen():
    t = Table(seats=2)
    t.table.markers = False
    t.table.set_look(t.table.look)  # re-render the background without markers
    t.put(card("GD500"), "seat:1")
    assert t.seconds(0.5) == []
    assert t.pipeline.stats()["calibration"]["status"] == "waiting for markers"
    assert "markers" in t.pipeline.stats()["holding"]


def test_a_bumped_camera_is_recalibrated_and_cards_stay_in_their_seats():
    from companion.scan.virtual_camera import Camera

    t = Table(seats=2)
    t.put(card("GD500"), "seat:1")
    t.put(card("BO200"), "seat:2")
    assert len(t.seconds(0.3)) == 2
    t.table.set_camera(Camera(tilt_deg=16, roll_deg=-3.0))  # someone knocked the camera arm
    # (the check a second on finds a marker moved; the whole frame is then searched a tile a frame, on
    # the frames without a tile of the periodic pass: 12 tiles, 24 frames)
    events = t.seconds(2.0)
    assert events == []
    state = t.pipeline.stats()["calibration"]
    assert state["status"] == "calibrated" and state["recalibrations"] == 1
    assert {c["card"]: c["zone"] for c in t.pipeline.tracked()} == {"GD500#1": "seat:1", "BO200#1": "seat:2"}


def test_before_any_game_starts_a_card_is_nobodys_play_and_the_camera_says_why():
    # The table has no game yet: a Book of Mormon card laid down is not a Book of Mormon play
    # (the service used to lay its zones out for Book of Mormon whatever was to be played).
    from companion.scan.pipeline import classify

    kind, why, _ = classify(encode(card("GD500")), "")
    assert kind == "other-game"
    assert why == "a bom-battle tag; no game is in play yet"
