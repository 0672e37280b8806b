"""EXPOSE, ELIMINATE and SAVE: the action cards that make a player choose, and the SAVE window.

Playing EXPOSE or ELIMINATE (or discarding it in the building phase) sets ``state.awaiting`` to the
choice the table owes (``what`` ``expose`` / ``eliminate``, ``by``, ``then``). A chosen ELIMINATE
target opens the SAVE window (``what`` ``save``): anyone may play SAVE out of turn, and any other
move closes the window and the target is out for the round. A SAVE card seen on the pile without a
seat asks who played it (``save_by``). ``then`` says how play goes on once the choice is made:
``finish_turn`` (a building turn), ``advance`` (the battle) or ``nothing`` (EXPOSE flipped first).

SKIP and REVERSE change the turn order (turns.py); NEW BATTLE resets the battle (battle.py).
"""
from __future__ import annotations

from typing import Any

from ..contract import Refused
from . import counts, turns
from .cards import Deck
from .report import Report
from .state import Awaiting, BattleState, Held


def ask_expose(deck: Deck, state: BattleState, by: int, then: str, report: Report) -> None:
    if not [s for s in state.seat_numbers() if s != by and not state.exposed[s]]:
        report.tell("no_effect", reason="all_exposed")
        _continue(deck, state, then, report)
        return
    state.awaiting = Awaiting(what="expose", by=by, then=then)
    report.tell("choose", what="expose", seat=by)


def on_expose(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``expose {"target": N}``: the identity card of N is turned face up for everyone."""
    asked = state.awaiting
    if not asked or asked.what != "expose":
        raise Refused("no_expose_waiting")
    target = data["target"]
    _check_chooser(state, asked, data)
    if target == asked.by:
        raise Refused("expose_self")
    if state.exposed[target]:
        raise Refused("already_exposed", target=target)
    state.exposed[target] = True
    report.tell("expose", reveals=True, seat=target, team=str(state.identity[target].team), by=asked.by)
    state.awaiting = None
    _continue(deck, state, asked.then, report)


def ask_eliminate(deck: Deck, state: BattleState, by: int, then: str, report: Report) -> None:
    if not [s for s in state.seat_numbers() if s != by and not state.eliminated[s]]:
        report.tell("no_effect", reason="nobody_left")
        _continue(deck, state, then, report)
        return
    state.awaiting = Awaiting(what="eliminate", by=by, then=then)
    report.tell("choose", what="eliminate", seat=by)


def on_eliminate(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``eliminate {"target": N}``: N is out for the round unless someone plays SAVE at once."""
    asked = state.awaiting
    if not asked or asked.what != "eliminate":
        raise Refused("no_eliminate_waiting")
    target = data["target"]
    _check_chooser(state, asked, data)
    if target == asked.by:
        raise Refused("eliminate_self")
    if state.eliminated[target]:
        raise Refused("already_out", target=target)
    state.awaiting = Awaiting(what="save", by=asked.by, then=asked.then, target=target)
    report.tell("eliminate", seat=target, by=asked.by)


def save_window_open(state: BattleState) -> bool:
    return state.awaiting is not None and state.awaiting.what == "save"


def save_card_seen(deck: Deck, state: BattleState, key: str, data: dict[str, Any], report: Report) -> None:
    """A SAVE card lands on the pile while the window is open: whose it is, if the data says."""
    asked = state.choice_owed()
    state.pile.append(key)
    if "seat" in data:
        _saved_by(deck, state, data["seat"], True, report)
        return
    asked.what = "save_by"
    report.tell("choose", what="save_by", target=asked.target)


def on_save(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``save {"by": N}``: N played SAVE (before the camera saw it, or answering "who played it?")."""
    asked = state.awaiting
    if not asked or asked.what not in ("save", "save_by"):
        raise Refused("no_one_to_save")
    _saved_by(deck, state, data["by"], asked.what == "save_by", report, Held(kind="save", by=data["by"]))


def _saved_by(deck: Deck, state: BattleState, saver: int, card_on_pile: bool, report: Report,
              held: Held | None = None) -> None:
    asked = state.choice_owed()
    if state.eliminated[saver]:
        raise Refused("saver_out", saver=saver)
    if state.hands[saver] < 1:
        counts.hold_for_count(state, saver, 1, held or Held(kind="save", by=saver), report)
        if card_on_pile:
            asked.what = "save_by"
        return
    state.hands[saver] -= 1
    if not card_on_pile:
        state.expect_save_card += 1  # the camera will see it land on the pile
    report.tell("save", seat=saver, saved=asked.target)
    state.awaiting = None
    _continue(deck, state, asked.then, report)


def on_no_save(deck: Deck, state: BattleState, data: dict[str, Any], report: Report) -> None:
    """``no_save``: nobody saves the chosen player."""
    if not save_window_open(state):
        raise Refused("no_save_window")
    close_save_window(deck, state, report)


def close_save_window(deck: Deck, state: BattleState, report: Report) -> None:
    """"Unless immediately saved": the chosen player places their hand down and is out for the round."""
    asked = state.choice_owed()
    assert asked.target is not None, "a SAVE window is open for a chosen target"
    state.eliminated[asked.target] = True
    state.hands[asked.target] = 0  # "will place his/her hand down"
    state.awaiting = None
    report.tell("eliminated", seat=asked.target)
    _continue(deck, state, asked.then, report)


def _continue(deck: Deck, state: BattleState, then: str, report: Report) -> None:
    """What happens once a choice is made: the building turn ends, or the battle moves on."""
    if then == "finish_turn":
        turns.maybe_finish_turn(deck, state, report)
    elif then == "advance":
        turns.advance(state, report)


def _check_chooser(state: BattleState, asked: Awaiting, data: dict[str, Any]) -> None:
    if "by" in data and data["by"] != asked.by:
        raise Refused("chooser_chooses", by=asked.by)
