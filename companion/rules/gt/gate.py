"""The gate every input passes before its handler: what the table must settle first.

While a hand count is in question (``count_check``) or a choice is owed (``awaiting``: an EXPOSE
or ELIMINATE target, who played a SAVE), inputs that move the game are refused with the question.
Let through are the answer itself, ``confirm_count``, ``card_gone``, sightings away from the
centre pile or of a card already on it, and the draw of the player who owes the choice when it is
their building turn and they have not drawn yet. An open SAVE window is different: any other
move closes it ("unless immediately saved": the moment has passed) and the target is out.
"""
from __future__ import annotations

from ..base import State
from . import action_cards, counts, seats
from .cards import Deck
from .prompt import awaiting
from .report import Refuse, Report


def check(deck: Deck, state: State, kind: str, data: dict, report: Report) -> None:
    """Inputs the table must settle first: a hand-count question, a choice, the SAVE window."""
    if kind in ("confirm_count", "card_gone") or not _moves_the_game(state, kind, data):
        return
    count_check = state["count_check"]
    if count_check:
        raise Refuse(f"First confirm {seats.name(state, count_check['seat'])}'s hand on the tablet: "
                     f"{counts.question(state, count_check)}")
    asked = state["awaiting"]
    if asked is None:
        return
    if asked["what"] == "save":
        if not _is_save_input(deck, kind, data):
            action_cards.close_save_window(deck, state, report)  # "unless immediately saved": the moment has passed
        return
    answers = {"expose": "expose", "eliminate": "eliminate", "save_by": "save"}[asked["what"]]
    if kind == answers:
        return
    step = state["step"]
    own_draw = (kind == "draw" and step is not None and step["drew"] is None
                and asked["by"] == state["turn"] and seats.data_seat(state, data, "seat") == state["turn"])
    if not own_draw:
        raise Refuse(f"First: {awaiting(state, asked)}")


def _moves_the_game(state: State, kind: str, data: dict) -> bool:
    """False for inputs that never wait on anything: sightings away from the centre, re-sightings."""
    if kind != "card_seen":
        return True
    return data.get("zone") == "center" and data.get("card") not in state["pile"]


def _is_save_input(deck: Deck, kind: str, data: dict) -> bool:
    if kind in ("save", "no_save"):
        return True
    if kind == "card_seen" and data.get("zone") == "center":
        card = deck.card(data.get("card"))
        return card.get("action") == "save"
    return False
