"""The fold (companion/gamelog/fold.py) applies each input to a copy planned from the state's field
types (companion/rules/statecopy.py), no longer a ``copy.deepcopy``: a game replays to exactly the
same states and outcomes as before, undo included, and no input changes the state it was given (a
refused input leaves the game as it was). Each game's seeded demo game is folded both ways in
tests/test_offers.py; here the recorded Book of Mormon logs, with undos, and the toy game."""
from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from companion.gamelog.logcheck import Event
from companion.gamelog.session import from_jsonl
from tests.fold_support import fold_recorded, folds_alike

LOGS = Path(__file__).parent / "logs" / "bom"


def log(name: str) -> list[Event]:
    return from_jsonl((LOGS / name).read_text(encoding="utf-8"), name)


def with_undos(events: list[Event], every: int) -> list[Event]:
    """``events`` with an undo after every ``every``-th command (a resolve, a button), numbered again."""
    out: list[Event] = []
    commands = 0
    for event in events:
        out.append(dataclasses.replace(event, seq=len(out) + 1))
        if event.kind not in ("start", "card_seen", "card_gone"):
            commands += 1
            if commands % every == 0:
                out.append(Event(len(out) + 1, event.ts, "undo", "dashboard", {}))
    return out


@pytest.mark.parametrize("name", sorted(p.name for p in LOGS.glob("*.jsonl")))
def test_a_recorded_log_folds_to_the_same_states_as_with_deepcopy(name, monkeypatch):
    assert folds_alike(log(name), monkeypatch) == len(log(name)) - 1


def test_a_log_with_undos_folds_to_the_same_states_as_with_deepcopy(monkeypatch):
    events = with_undos(log("basic-3-seats.jsonl")[:200], every=4)  # each undo folds again from the start
    derived, _ = fold_recorded(events, monkeypatch)
    assert [e.status for e in derived.entries].count("undo") >= 4, "the undos are taken, not refused"
    folds_alike(events, monkeypatch)


def test_the_toy_game_folds_to_the_same_states_as_with_deepcopy(toy_game, monkeypatch):
    seats = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]
    inputs = [("start", {"game": toy_game, "seats": seats, "options": {}}, "dashboard")]
    for one, two in [(9, 1), (4, 4), (2, 7), (10, 3), (8, 5)]:
        inputs += [("card_seen", {"card": f"N{one}#1", "zone": "seat:1"}, "camera"),
                   ("card_seen", {"card": f"N{two}#2", "zone": "seat:2"}, "camera"),
                   ("resolve", {}, "dashboard"), ("undo", {}, "dashboard"), ("resolve", {}, "dashboard"),
                   ("card_gone", {"card": f"N{one}#1", "zone": "seat:1"}, "camera"),
                   ("card_gone", {"card": f"N{two}#2", "zone": "seat:2"}, "camera")]
    events = [Event(seq, float(seq), kind, source, data) for seq, (kind, data, source) in enumerate(inputs, 1)]
    assert folds_alike(events, monkeypatch) > 20
    statuses = [e.status for e in fold_recorded(events, monkeypatch)[0].entries]
    assert statuses.count("undo") == 5 and "refused" in statuses, "undos taken and a refusal, both compared"


def test_a_shallow_copy_would_be_caught(monkeypatch):
    """The check can fail: with a shallow copy, an input changes the state it was given."""
    with pytest.raises(AssertionError, match="changed the state it was given"):
        fold_recorded(log("mount-twice.jsonl"), monkeypatch, copy.copy)
