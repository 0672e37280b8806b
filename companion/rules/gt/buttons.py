"""The tablet's buttons in words: a label for each offer the contract found (inputs tried through
``apply``), and offers of one input that differ only in the value chosen shown as one picker.

Only what the camera cannot see needs a button: draws, passes, choices, hand counts, a new round
and the tie-break's draws.
"""
from __future__ import annotations

from typing import Any

from ..contract import Offer
from .cards import Deck
from .state import BattleState, Phase

# The field a picker chooses, per input: the rest of the data is the same for every choice.
PICKED = {"expose": "target", "eliminate": "target", "save": "by", "confirm_count": "cards", "tiebreak_draw": "card"}


def actions(offers: list[Offer], state: BattleState, deck: Deck) -> list[dict[str, Any]]:
    """The buttons and pickers, in the order of the input table."""
    shown: list[dict[str, Any]] = []
    pickers: dict[tuple, dict[str, Any]] = {}
    for offer in offers:
        field = PICKED.get(offer.kind)
        if field is None:
            shown.append({"label": label(offer, state, deck), "kind": offer.kind, "data": offer.data,
                          **({"confirm": True} if offer.confirm else {})})
            continue
        rest = {k: v for k, v in offer.data.items() if k != field}
        key = (offer.kind, tuple(sorted(rest.items())))
        if key not in pickers:
            pickers[key] = {"label": _picker(offer.kind, rest, state), "kind": offer.kind, "data": rest,
                            "choose": {"field": field, "options": []}}
            shown.append(pickers[key])
        value = offer.data[field]
        pickers[key]["choose"]["options"].append({"value": value, "label": _choice(field, value, state)})
    return shown


def label(offer: Offer, state: BattleState, deck: Deck) -> str:
    """One offer's words, the choice included ("Ben exposes Cy")."""
    field = PICKED.get(offer.kind)
    if field:
        rest = {k: v for k, v in offer.data.items() if k != field}
        return f"{_picker(offer.kind, rest, state)} {_choice(field, offer.data[field], state)}"
    if offer.kind == "draw":
        who = state.name(offer.data["seat"])
        if offer.data["from"] == "deck":
            return f"{who} drew from the deck"
        return f"{who} took the top discard ({deck.name(state.step.top)})"
    if offer.kind == "pass":
        keeps = state.phase == Phase.BUILDING
        return f"{state.name(offer.data['seat'])} {'keeps all cards (no discard)' if keeps else 'passes'}"
    return {"no_save": "No save", "new_round": "New round (cards shuffled and dealt)"}.get(
        offer.kind, offer.kind.replace("_", " "))


def _picker(kind: str, rest: dict[str, Any], state: BattleState) -> str:
    if kind in ("expose", "eliminate"):
        return f"{state.name(state.awaiting.by)} {kind}s"
    if kind == "save":
        return "SAVE played by"
    if kind == "confirm_count":
        return f"{state.name(rest['seat'])} holds this many cards now"
    return f"{state.name(rest['seat'])} drew"


def _choice(field: str, value: Any, state: BattleState) -> str:
    if field in ("target", "by"):
        return state.name(value)
    return value.upper() if isinstance(value, str) else str(value)
