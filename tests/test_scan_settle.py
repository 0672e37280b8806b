"""The quick settle, decided by what the camera sees: a battle resolves on its own once the camera's
frames have shown the table still (companion/scan/stillness.py), and never with a card that was
only passing through a seat's place or was lifted straight back.

End to end: real QR cards on the virtual table, frame by frame through the real pipeline into the
session, with the session's clock moved one frame at a time (30 fps), and the service's rule for
the settle (``Service.table_still``: ``STILL_FRAMES`` still frames in a row)."""
from __future__ import annotations

from collections import Counter

import pytest

from companion.gamelog.session import Session, open_store
from companion.scan.stillness import STILL_FRAMES, Stillness
from tests.scan_helpers import FRAME_S, Table, card
from tests.timing import ManualClock

SETTLE, QUICK = 1.5, 0.5
RESTING = [(10, 10), (50, 10), (50, 50), (10, 50)]


def shifted(corners, dx: float):
    return [(x + dx, y) for x, y in corners]


# -- the count itself ---------------------------------------------------------------------------
def test_a_card_lying_still_counts_one_frame_at_a_time():
    still = Stillness()
    held = Counter({"GD500#1": 1})
    still.update(True, [("GD500#1", RESTING)], held)  # laid: the frame that saw it arrive
    assert [still.update(False, [("GD500#1", RESTING)], held) for _ in range(3)] == [1, 2, 3]


def test_anything_moving_starts_the_count_again():
    still = Stillness()
    held = Counter({"GD500#1": 1})
    for _ in range(4):
        still.update(False, [("GD500#1", RESTING)], held)
    assert still.update(True, [("GD500#1", RESTING)], held) == 0


def test_a_card_creeping_too_slowly_for_the_motion_map_is_not_still():
    """Pushed a pixel a frame, no block changes enough to count as moving; its corners drift from
    where it lay all the same, and the count starts again once they are more than 4 px away (a
    still tag read again differs by up to 3)."""
    still = Stillness()
    held = Counter({"GD500#1": 1})
    counts = [still.update(False, [("GD500#1", shifted(RESTING, n))], held) for n in range(12)]
    assert max(counts) < STILL_FRAMES
    assert 0 in counts[1:]


def test_a_card_the_tracker_holds_but_no_frame_reads_keeps_the_table_unsettled():
    """Lifted straight back: the tracker still holds it until it is reported gone."""
    still = Stillness()
    held = Counter({"GD500#1": 1, "BO300#1": 1})
    still.update(True, [("GD500#1", RESTING)], held)  # the frame in which the hand took BO300 away
    assert [still.update(False, [("GD500#1", RESTING)], held) for _ in range(20)] == [0] * 20
    assert still.update(False, [("GD500#1", RESTING)], Counter({"GD500#1": 1})) == 0, "reported gone: a change"
    assert still.update(False, [("GD500#1", RESTING)], Counter({"GD500#1": 1})) == 1


def test_a_tag_missed_for_a_frame_only_delays_the_count():
    still = Stillness()
    held = Counter({"GD500#1": 1})
    still.update(True, [("GD500#1", RESTING)], held)
    counts = [still.update(False, readings, held) for readings in
              ([("GD500#1", RESTING)], [], [("GD500#1", RESTING)], [("GD500#1", RESTING)])]
    assert counts == [1, 1, 2, 3]


def test_a_new_card_read_starts_the_count_again():
    still = Stillness()
    held = Counter({"GD500#1": 1})
    for _ in range(4):
        still.update(False, [("GD500#1", RESTING)], held)
    assert still.update(False, [("GD500#1", RESTING), ("BO300#1", shifted(RESTING, 100))], held) == 0


# -- on the table -------------------------------------------------------------------------------
class Battle:
    """Book of Mormon for Ann and Ben on the virtual table, the camera feeding the session."""

    def __init__(self, tmp_path, still_frames: int = STILL_FRAMES):
        self.clock = ManualClock(0.0)
        self.session = Session.start(open_store(tmp_path), "bom-battle",
                                     [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}], clock=self.clock)
        self.table = Table(seats=2)
        self.table.pipeline.on_event = lambda kind, data: self.session.submit(kind, data, "camera")
        self.still_frames = still_frames
        self.resolved_with: list[list[str]] = []  # the cards on the table at each resolve
        self.frames(2)  # the empty mat: calibration

    def frames(self, count: int = 1) -> None:
        """Frames as the service sees them: each processed, then the referee's settle checked."""
        for _ in range(count):
            self.clock.now += FRAME_S
            self.table.frames(1)
            camera_still = self.table.pipeline.stillness.frames >= self.still_frames
            if self.session.maybe_auto_resolve(SETTLE, QUICK, camera_still) is not None:
                self.resolved_with.append(sorted(t["card"] for t in self.table.pipeline.tracked()))

    def resolves(self) -> list[dict]:
        return [e.outcomes[0] for e in self.session.derived.entries if e.event.kind == "resolve" and e.status == "applied"]


@pytest.fixture
def battle(tmp_path):
    return Battle(tmp_path)


@pytest.mark.slow  # about a hundred frames rendered and decoded
def test_a_card_laid_and_left_resolves_the_battle_after_the_still_frames(battle):
    battle.table.put(card("GD500"), "seat:1")
    battle.frames(10)
    battle.table.put(card("BO300"), "seat:2")
    battle.frames(2)  # the frame that sees it arrive, the one that confirms it
    assert battle.session.ruleset.ready_to_resolve(battle.session.state)
    battle.frames(STILL_FRAMES - 2)
    assert battle.resolves() == []
    battle.frames(2)
    assert battle.resolved_with == [["BO300#1", "GD500#1"]]


def slide(battle: Battle, ref, start, end, push_mm: float = 30.0, push_frames: int = 4, pause_frames: int = 3) -> None:
    """A card pushed along the mat from start to end in short pushes with a pause between them (a
    finger lifted and set down again), as a card is slid across a table."""
    (x, y), (x1, y1) = start, end
    steps = max(round(abs(x1 - x) / push_mm), 1)
    for step in range(1, steps + 1):
        battle.table.table.place(ref, (x + (x1 - x) * step / steps, y + (y1 - y) * step / steps))
        battle.frames(1)
        if step % push_frames == 0:
            battle.frames(pause_frames)


@pytest.mark.slow  # about a hundred frames rendered and decoded
def test_a_card_slid_across_a_seats_place_is_not_played_where_it_passes(battle):
    """Ann's card lies in her place; Ben slides a card across his place to the side of the mat,
    pausing for a tenth of a second between pushes. It is read there, even reported there (a card
    seen), but the table is never still while it passes: no battle resolves with it."""
    battle.table.put(card("GD500"), "seat:1")
    battle.frames(10)
    slide(battle, card("BO300"), start=(40, 100), end=(760, 100))
    seen_in_ben_place = [e for e in battle.session.derived.entries
                         if e.event.kind == "card_seen" and e.event.data["zone"] == "seat:2"]
    assert seen_in_ben_place, "the camera read the card as it passed through Ben's place"
    battle.frames(40)  # it lies at the side of the mat, in no seat's place
    assert battle.resolves() == []


@pytest.mark.slow  # about a hundred frames rendered and decoded
def test_a_settle_of_two_frames_would_play_the_sliding_card_where_it_passes(tmp_path):
    """The same slide with a settle too short (two still frames: a finger's pause) does play it."""
    battle = Battle(tmp_path, still_frames=2)
    battle.table.put(card("GD500"), "seat:1")
    battle.frames(10)
    slide(battle, card("BO300"), start=(40, 100), end=(760, 100))
    assert battle.resolves() != []


@pytest.mark.slow  # about a hundred frames rendered and decoded
def test_a_card_lifted_straight_back_is_not_played(battle):
    """Ben lays a card and takes it back a few frames later, after the camera has confirmed it:
    the battle does not resolve with it, and the card is reported gone."""
    battle.table.put(card("GD500"), "seat:1")
    battle.frames(10)
    battle.table.put(card("BO300"), "seat:2")
    battle.frames(3)
    assert battle.session.ruleset.ready_to_resolve(battle.session.state), "the camera took it as played"
    battle.table.table.remove(card("BO300"))
    battle.frames(45)  # a second and a half: the tracker reports it gone after about 0.75 s
    gone = [e for e in battle.session.derived.entries if e.event.kind == "card_gone"]
    assert [e.event.data["card"] for e in gone] == ["BO300#1"]
    assert battle.resolves() == []
