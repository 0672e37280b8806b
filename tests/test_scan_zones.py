"""Zone layouts in mat millimetres: seats clockwise, slots that do not overlap, markers kept clear."""
from __future__ import annotations

import itertools

import pytest

from companion.scan.calibration import MARKERS
from companion.scan.zones import CARD_MM, ZoneMap


def overlap(a, b, tol=1e-6):
    return a.x + tol < b.x + b.w and b.x + tol < a.x + a.w and a.y + tol < b.y + b.h and b.y + tol < a.y + a.h


@pytest.mark.parametrize("seats", range(1, 11))
@pytest.mark.parametrize("game", ["bom-battle", "gt-battle", "stratego"])
def test_every_layout_has_its_seats_no_overlaps_and_leaves_the_markers_clear(game, seats):
    zones = ZoneMap.for_game(game, seats)
    names = [z.name for z in zones.zones]
    assert sorted(n for n in names if n.startswith("seat:")) == sorted(f"seat:{i}" for i in range(1, seats + 1))
    for a, b in itertools.combinations(zones.zones, 2):
        assert not overlap(a, b), (a, b)
    for zone in zones.zones:
        for corners in MARKERS.values():
            (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
            assert not (zone.x < x1 and x0 < zone.x + zone.w and zone.y < y1 and y0 < zone.y + zone.h), zone


def test_shared_zones_only_where_the_game_uses_them():
    assert "center" in ZoneMap.for_game("gt-battle", 6).by_name
    assert "tray" in ZoneMap.for_game("stratego", 2).by_name
    assert "tray" in ZoneMap.for_game("gt-battle", 6).by_name  # identities shown to the camera
    bom = ZoneMap.for_game("bom-battle", 4).by_name
    assert "center" not in bom and "tray" in bom  # Spy's Trivia reads the card in the tray
    assert "center" not in ZoneMap.for_game("stratego", 2).by_name


def test_seats_go_clockwise_round_the_table_seen_from_above():
    """Seat 1 at the near edge on the right, then leftwards along the near edge, then left to
    right along the far edge (clockwise as seen from the camera, far edge at the top)."""
    zones = ZoneMap.for_game("bom-battle", 5)
    centre = {z.name: (z.x + z.w / 2, z.y + z.h / 2) for z in zones.zones}
    near = [centre[f"seat:{i}"] for i in (1, 2, 3)]
    far = [centre[f"seat:{i}"] for i in (4, 5)]
    assert all(y > 300 for _, y in near) and all(y < 300 for _, y in far)
    assert near[0][0] > near[1][0] > near[2][0]   # right to left along the near edge
    assert far[0][0] < far[1][0]                  # left to right along the far edge


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_slots_lie_in_their_zone_and_cards_in_them_do_not_touch(seats):
    zones = ZoneMap.for_game("gt-battle", seats)
    for zone in zones.zones:
        slots = [zones.slot(zone.name, i) for i in range(zones.capacity(zone.name))]
        assert slots, f"{zone.name} holds no card"
        for x, y in slots:
            assert zones.zone_at((x, y)) == zone.name
            assert zone.x <= x - CARD_MM[0] / 2 and x + CARD_MM[0] / 2 <= zone.x + zone.w
            assert zone.y <= y - CARD_MM[1] / 2 and y + CARD_MM[1] / 2 <= zone.y + zone.h
        for (ax, ay), (bx, by) in itertools.combinations(slots, 2):
            assert abs(ax - bx) >= CARD_MM[0] + 10 or abs(ay - by) >= CARD_MM[1] + 10


def test_bad_layout_requests_say_what_is_wrong():
    with pytest.raises(ValueError, match="1 to 10 seats"):
        ZoneMap.for_game("bom-battle", 0)
    zones = ZoneMap.for_game("bom-battle", 2)
    with pytest.raises(KeyError, match="no zone 'center'"):
        zones.slot("center", 0)
    with pytest.raises(IndexError, match="holds"):
        zones.slot("seat:1", zones.capacity("seat:1"))
    assert zones.zone_at((5, 5)) is None  # a marker corner is in no zone


def test_the_layout_as_json_for_the_dashboard():
    data = ZoneMap.for_game("stratego", 2).to_json()
    assert data["mat_mm"] == [900.0, 600.0]
    assert {z["name"] for z in data["zones"]} == {"seat:1", "seat:2", "tray"}
    assert set(data["markers"]) == {"0", "1", "2", "3"}
