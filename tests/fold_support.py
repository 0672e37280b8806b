"""Folding a log the way the session does and the way it did before (each input applied to a
``copy.deepcopy`` of the state), recording the state after every input and checking that no input
changed the state it was given: used by tests/test_fold_copy.py and tests/test_offers.py."""
from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from companion.gamelog import fold as folding
from companion.gamelog.logcheck import Event


def fold_recorded(events: list[Event], monkeypatch: pytest.MonkeyPatch,
                  copier: Callable[[Any], Any] | None = None) -> tuple[folding.Derived, list[Any]]:
    """The fold of ``events`` with ``copier`` in place of the session's copy (None: the session's own),
    and the state after each input (a deep copy taken at once, so a later input cannot change it).
    Fails if an input changed the state it was given: a refused input leaves the game as it was, and
    an undo folds again from states kept earlier."""
    real_step = folding.step
    after: list[Any] = []

    def recorded(ruleset, state, event):
        before = copy.deepcopy(state)
        entry, new = real_step(ruleset, state, event)
        assert state == before, f"input #{event.seq} ({event.kind}) changed the state it was given"
        after.append(copy.deepcopy(new))
        return entry, new

    with monkeypatch.context() as patch:
        patch.setattr(folding, "step", recorded)
        if copier is not None:
            patch.setattr(folding, "copy_state", copier)
        derived = folding.fold(events)
    return derived, after


def folds_alike(events: list[Event], monkeypatch: pytest.MonkeyPatch) -> int:
    """Fold ``events`` as the session does and as it did with ``copy.deepcopy``: the same entries
    (status, reason, outcomes) and the same state after every input. Returns the inputs compared."""
    now, states_now = fold_recorded(events, monkeypatch)
    before, states_before = fold_recorded(events, monkeypatch, copy.deepcopy)
    assert [e.as_dict() for e in now.entries] == [e.as_dict() for e in before.entries]
    assert [(e.seat, e.private) for e in now.entries] == [(e.seat, e.private) for e in before.entries]
    assert len(states_now) == len(states_before)
    for index, (state, old) in enumerate(zip(states_now, states_before)):
        assert state == old and type(state) is type(old), f"the state after input {index + 1} differs"
    assert now.state == before.state
    return len(states_now)
