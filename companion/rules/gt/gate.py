"""The gate every input passes before its handler: what the table must settle first.

While a hand count is in question (``count_check``) or a choice is owed (``awaiting``: an EXPOSE
or ELIMINATE target, who played a SAVE), inputs that move the game are refused with the question.
Let through are the answer itself, ``confirm_count``, ``card_gone``, sightings away from the
centre pile or of a card already on it, and the draw of the player who owes the choice when it is
their building turn and they have not drawn yet. An open SAVE window is different: any other
move closes it ("unless immediately saved": the moment has passed) and the target is out.

The shape of an input (its fields, seats, card keys, phase) is the contract's check, made before.
"""
from __future__ import annotations

from typing import Any

from ..contract import Refused
from . import action_cards
from .cards import Deck
from .report import Report
from .state import BattleState

ANSWERS = {"expose": "expose", "eliminate": "eliminate", "save_by": "save"}


def check(deck: Deck, state: BattleState, kind: str, data: dict[str, Any], report: Report) -> None:
    """Inputs the table must settle first: a hand-count question, a choice, the SAVE window."""
    if kind in ("confirm_count", "card_gone") or not _moves_the_game(state, kind, data):
        return
    if state.count_check:
        raise Refused("count_question_first", counted_seat=state.count_check.seat)
    asked = state.awaiting
    if asked is None:
        return
    if asked.what == "save":
        if not _is_save_input(deck, kind, data):
            action_cards.close_save_window(deck, state, report)  # "unless immediately saved": the moment has passed
        return
    if kind == ANSWERS[asked.what]:
        return
    step = state.step
    own_draw = (kind == "draw" and step is not None and step.drew is None and asked.by == state.turn
                and data["seat"] == state.turn)
    if not own_draw:
        raise Refused("choice_first", what=asked.what, by=asked.by, target=asked.target)


def _moves_the_game(state: BattleState, kind: str, data: dict[str, Any]) -> bool:
    """False for inputs that never wait on anything: sightings away from the centre, re-sightings."""
    if kind != "card_seen":
        return True
    return data["zone"] == "center" and data["card"] not in state.pile


def _is_save_input(deck: Deck, kind: str, data: dict[str, Any]) -> bool:
    if kind in ("save", "no_save"):
        return True
    return kind == "card_seen" and data["zone"] == "center" and deck.action(data["card"]) == "save"
