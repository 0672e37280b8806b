"""Book of Mormon's told outcomes are worded once and kept (companion/rules/bom/words.py, ``kept``):
the tablet's every view words the last ten results again from their data. The kept words must be
the words made afresh, in every view of a whole logged game, and must follow the seats' names."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from companion.gamelog.fold import fold
from companion.gamelog.session import from_jsonl
from companion.rules import Seat
from companion.rules.bom import words
from companion.rules.statecopy import copy_state

LOGS = Path(__file__).parent / "logs" / "bom"


def afresh(method):
    """``method`` of Words as it words without the kept words."""
    return method.__wrapped__


def recent(game, state):
    return [(r["kind"], r["say"], r["terms"]) for r in game.public_view(state)["recent"]]


def test_the_kept_words_are_the_words_made_afresh_in_a_whole_logged_game(monkeypatch):
    events = from_jsonl((LOGS / "basic-3-seats.jsonl").read_text(encoding="utf-8"))
    game = fold(events[:1]).ruleset
    kept_views, fresh_views = [], []
    for end in range(40, len(events) + 1, 40):
        state = fold(events[:end]).state
        kept_views.append(recent(game, state))
        kept_views.append(recent(game, state))  # the second time, every sentence is a kept one
        with monkeypatch.context() as patch:
            for name in ("battle", "mount", "tiebreak", "terms"):
                patch.setattr(words.Words, name, afresh(getattr(words.Words, name)))
            fresh_views += [recent(game, state)] * 2
    assert kept_views == fresh_views
    assert sum(len(view) for view in kept_views) > 100 and any("wins" in say for v in kept_views for _, say, _ in v)


def test_a_seat_renamed_is_named_in_the_kept_words_too():
    events = from_jsonl((LOGS / "basic-3-seats.jsonl").read_text(encoding="utf-8"))
    derived = fold(events[:200])
    game, state = derived.ruleset, derived.state
    before = recent(game, state)
    assert any("Seat 2 (Ben)" in say for _, say, _ in before)
    renamed = copy_state(state)  # shares the told outcomes, as every copy of the state does
    renamed.seats = [dataclasses.replace(s, name="Bea") if s.number == 2 else s for s in renamed.seats]
    assert renamed.recent[0] is state.recent[0] and isinstance(renamed.seats[1], Seat)
    after = recent(game, renamed)
    assert not any("Seat 2 (Ben)" in say for _, say, _ in after)
    assert [say.replace("Seat 2 (Bea)", "Seat 2 (Ben)") for _, say, _ in after] == [say for _, say, _ in before]
