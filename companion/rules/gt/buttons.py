"""The tablet's buttons: the ruleset's ``actions(state)``, the inputs that make sense right now.

Each button is an input the dashboard sends through ``apply`` like any other; a ``choose`` asks
for one value first (a target seat, a hand count). Only what the camera cannot see needs a button:
draws, passes, choices, hand counts, a new round and the tie-break's draws.
"""
from __future__ import annotations

from typing import Any

from ..base import State
from . import seats
from .cards import Deck


def offer(deck: Deck, state: State) -> list[dict[str, Any]]:
    """The commands that make sense now; the dashboard shows them as buttons and pickers."""
    if state["over"]:
        return []
    check, asked, phase = state["count_check"], state["awaiting"], state["phase"]
    if check:
        return [_pick(f"{seats.short(state, check['seat'])} holds this many cards now", "confirm_count",
                      {"seat": check["seat"]}, "cards", [(n, str(n)) for n in range(0, 31)])]
    if asked:
        return _answers(state, asked)
    if phase == "building":
        return _building(deck, state)
    if phase == "battle" and not state["pending"]:
        turn = state["turn"]
        return [{"label": f"{seats.short(state, turn)} passes", "kind": "pass", "data": {"seat": turn}}]
    if phase == "round_over":
        return [{"label": "New round (cards shuffled and dealt)", "kind": "new_round", "data": {}}]
    if phase == "tiebreak":
        tie = state["tiebreak"]
        return [_pick(f"{seats.short(state, s)} drew", "tiebreak_draw", {"seat": s}, "card",
                      [("save", "SAVE"), ("eliminate", "ELIMINATE")])
                for s in tie["players"] if all(d["seat"] != s for d in tie["drawn"])]
    return []


def _answers(state: State, asked: dict) -> list[dict[str, Any]]:
    """The choice an EXPOSE, an ELIMINATE or a SAVE waits on."""
    everyone = range(1, len(state["seats"]) + 1)
    by = seats.short(state, asked["by"])
    if asked["what"] == "expose":
        targets = [s for s in everyone if s != asked["by"] and not state["exposed"][s - 1]]
        return [_pick(f"{by} exposes", "expose", {}, "target", _seat_options(state, targets))]
    if asked["what"] == "eliminate":
        targets = [s for s in everyone if s != asked["by"] and not state["eliminated"][s - 1]]
        return [_pick(f"{by} eliminates", "eliminate", {}, "target", _seat_options(state, targets))]
    savers = _seat_options(state, [s for s in everyone if not state["eliminated"][s - 1]])
    buttons = [_pick("SAVE played by", "save", {}, "by", savers)]
    if asked["what"] == "save":
        buttons.append({"label": "No save", "kind": "no_save", "data": {}})
    return buttons


def _building(deck: Deck, state: State) -> list[dict[str, Any]]:
    """A building turn: the draw (the camera cannot see it), then keeping all cards."""
    turn, step = state["turn"], state["step"]
    who = seats.short(state, turn)
    if step["drew"] is None:
        buttons = [{"label": f"{who} drew from the deck", "kind": "draw", "data": {"seat": turn, "from": "deck"}}]
        top = step["top"]
        if top and (deck.card(top).kind != "action" or (state["may_take_flipped"] and top == state["flipped"])):
            buttons.append({"label": f"{who} took the top discard ({deck.card(top).name})", "kind": "draw",
                            "data": {"seat": turn, "from": "discard"}})
        return buttons
    if not step["discard"]:
        return [{"label": f"{who} keeps all cards (no discard)", "kind": "pass", "data": {"seat": turn}}]
    return []


def _pick(label: str, kind: str, data: dict, field_name: str, options: list[tuple[Any, str]]) -> dict:
    """A button that asks for one value (``field_name``) from ``options`` before it sends."""
    return {"label": label, "kind": kind, "data": data,
            "choose": {"field": field_name, "options": [{"value": v, "label": text} for v, text in options]}}


def _seat_options(state: State, chosen: list[int]) -> list[tuple[int, str]]:
    return [(s, seats.short(state, s)) for s in chosen]
