"""EXPOSE, ELIMINATE and SAVE: the action cards that make a player choose, and the SAVE window.

Playing EXPOSE or ELIMINATE (or discarding it in the building phase) sets ``state.awaiting`` to the
choice the table owes (``what`` ``expose`` / ``eliminate``, ``by``, ``then``). A chosen ELIMINATE
target opens the SAVE window (``what`` ``save``): anyone may play SAVE out of turn, and any other
move closes the window and the target is out for the round (``turns.owed_first``). A SAVE card seen
on the pile without a seat asks who played it (``save_by``). ``then`` says how play goes on once the
choice is made (``turns.go_on``): ``finish_turn`` (a building turn), ``advance`` (the battle) or
``nothing`` (EXPOSE flipped first).

SKIP and REVERSE change the turn order (turns.py); NEW BATTLE resets the battle (battle.py).
"""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import counts, turns
from .cards import Deck
from .state import Awaiting, BattleState, Held


def ask_expose(deck: Deck, state: BattleState, by: int, then: str) -> tuple[Outcome, ...]:
    if not [s for s in state.seat_numbers() if s != by and not state.exposed[s]]:
        return (Outcome("no_effect", data={"reason": "all_exposed"}), *turns.go_on(deck, state, then))
    state.awaiting = Awaiting(what="expose", by=by, then=then)
    return (Outcome("choose", data={"what": "expose", "seat": by}),)


def expose(deck: Deck, state: BattleState, target: int, by: int | None) -> tuple[Outcome, ...]:
    """``expose {"target": N}``: the identity card of N is turned face up for everyone."""
    asked = state.awaiting
    if not asked or asked.what != "expose":
        raise Refused("no_expose_waiting")
    _check_chooser(asked, by)
    if target == asked.by:
        raise Refused("expose_self")
    if state.exposed[target]:
        raise Refused("already_exposed", target=target)
    state.exposed[target] = True
    state.awaiting = None
    return (Outcome("expose", data={"seat": target, "team": str(state.identity[target].team), "by": asked.by}, reveals=True),
            *turns.go_on(deck, state, asked.then))


def ask_eliminate(deck: Deck, state: BattleState, by: int, then: str) -> tuple[Outcome, ...]:
    if not [s for s in state.seat_numbers() if s != by and not state.eliminated[s]]:
        return (Outcome("no_effect", data={"reason": "nobody_left"}), *turns.go_on(deck, state, then))
    state.awaiting = Awaiting(what="eliminate", by=by, then=then)
    return (Outcome("choose", data={"what": "eliminate", "seat": by}),)


def eliminate(state: BattleState, target: int, by: int | None) -> tuple[Outcome, ...]:
    """``eliminate {"target": N}``: N is out for the round unless someone plays SAVE at once."""
    asked = state.awaiting
    if not asked or asked.what != "eliminate":
        raise Refused("no_eliminate_waiting")
    _check_chooser(asked, by)
    if target == asked.by:
        raise Refused("eliminate_self")
    if state.eliminated[target]:
        raise Refused("already_out", target=target)
    state.awaiting = Awaiting(what="save", by=asked.by, then=asked.then, target=target)
    return (Outcome("eliminate", data={"seat": target, "by": asked.by}),)


def save_window_open(state: BattleState) -> bool:
    return state.awaiting is not None and state.awaiting.what == "save"


def save_card_seen(deck: Deck, state: BattleState, key: str, seat: int | None) -> tuple[Outcome, ...]:
    """A SAVE card lands on the pile while the window is open: whose it is, if the tablet said."""
    asked = state.choice_owed()
    state.pile.append(key)
    if seat is not None:
        return _saved_by(deck, state, seat, True)
    asked.what = "save_by"
    return (Outcome("choose", data={"what": "save_by", "target": asked.target}),)


def save(deck: Deck, state: BattleState, by: int) -> tuple[Outcome, ...]:
    """``save {"by": N}``: N played SAVE (before the camera saw it, or answering "who played it?")."""
    asked = state.awaiting
    if not asked or asked.what not in ("save", "save_by"):
        raise Refused("no_one_to_save")
    return _saved_by(deck, state, by, asked.what == "save_by", Held(kind="save", by=by))


def _saved_by(deck: Deck, state: BattleState, saver: int, card_on_pile: bool, held: Held | None = None) -> tuple[Outcome, ...]:
    asked = state.choice_owed()
    if state.eliminated[saver]:
        raise Refused("saver_out", saver=saver)
    if state.hands[saver] < 1:
        if card_on_pile:
            asked.what = "save_by"
        return counts.hold_for_count(state, saver, 1, held or Held(kind="save", by=saver))
    state.hands[saver] -= 1
    if not card_on_pile:
        state.expect_save_card += 1  # the camera will see it land on the pile
    state.awaiting = None
    return (Outcome("save", data={"seat": saver, "saved": asked.target}), *turns.go_on(deck, state, asked.then))


def no_save(deck: Deck, state: BattleState) -> tuple[Outcome, ...]:
    """``no_save``: nobody saves the chosen player."""
    if not save_window_open(state):
        raise Refused("no_save_window")
    return turns.close_save_window(deck, state)


def _check_chooser(asked: Awaiting, by: int | None) -> None:
    if by is not None and by != asked.by:
        raise Refused("chooser_chooses", by=asked.by)
