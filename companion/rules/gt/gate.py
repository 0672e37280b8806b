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

from ..contract import Refused
from . import action_cards, seats
from .cards import Deck
from .report import Report
from .state import Awaiting, BattleState

ANSWERS = {"expose": "expose", "eliminate": "eliminate", "save_by": "save"}


def check(deck: Deck, state: BattleState, kind: str, data: dict, report: Report) -> None:
    """Inputs the table must settle first: a hand-count question, a choice, the SAVE window."""
    if kind in ("confirm_count", "card_gone") or not _moves_the_game(state, kind, data):
        return
    if state.count_check:
        seat = seats.name(state, state.count_check.seat)
        raise Refused(f"First confirm {seat}'s hand on the tablet: how many cards does {seat} hold in hand now "
                      f"(not counting the identity card)?")
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
        raise Refused(f"First: {owed(state, asked)}")


def owed(state: BattleState, asked: Awaiting) -> str:
    """The choice a refusal says the table owes first."""
    by = seats.name(state, asked.by)
    if asked.what == "expose":
        return f"{by} chooses a player to expose."
    if asked.what == "eliminate":
        return f"{by} chooses a player to eliminate."
    return f"who played the SAVE card for {seats.name(state, asked.target)}?"


def _moves_the_game(state: BattleState, kind: str, data: dict) -> bool:
    """False for inputs that never wait on anything: sightings away from the centre, re-sightings."""
    if kind != "card_seen":
        return True
    return data["zone"] == "center" and data["card"] not in state.pile


def _is_save_input(deck: Deck, kind: str, data: dict) -> bool:
    if kind in ("save", "no_save"):
        return True
    return kind == "card_seen" and data["zone"] == "center" and deck.action(data["card"]) == "save"
