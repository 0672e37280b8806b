"""What the tablet shows (the public view) and what one player's phone shows (a seat view).

The public view never holds an identity that is not face up: a team shows in the standings only
once EXPOSE turned it up or the round is over, and a conflict over an identity card's tag does not
name the card. A seat view adds that seat's own identity and hand count.
"""
from __future__ import annotations

from typing import Any

from ..base import State
from . import counts, seats
from .cards import Deck
from .plays import describe, play_problem
from .prompt import awaiting, prompt
from .rulebook import TEAM_CARD
from .seats import LEFT


def public_view(deck: Deck, state: State) -> dict[str, Any]:
    fight = _fight(deck, state)
    problems = [p for p in (_count_check(state) or {}, (fight or {}).get("pending") or {}) if p.get("say")]
    return {
        "phase": state["phase"], "round": state["round"], "dealer": state["dealer"], "turn": state["turn"],
        "direction": "left" if state["direction"] == LEFT else "right", "deck": state["deck"],
        "discard_top": _discard_top(deck, state), "options": state["options"], "deal": state["deal"],
        "standings": _standings(deck, state, fight), "fight": fight, "awaiting": _awaiting(state),
        "count_check": _count_check(state), "tiebreak": state["tiebreak"],
        "conflicts": [_conflict(deck, c) for c in state["conflicts"]],
        "problems": [p["say"] for p in problems],
        "rounds": [{**r, "teams": [TEAM_CARD[t] for t in r["teams"]]} for r in state["rounds"]],
        "identities_missing": seats.identities_missing(state) if state["phase"] == "deal" else [],
        "prompt": prompt(deck, state), "last_outcome": state["last_outcome"],
        "winner": state["winner"], "over": state["over"],
    }


def seat_view(deck: Deck, state: State, seat: int) -> dict[str, Any]:
    """What one player's phone shows: the table, plus their own identity and hand."""
    view = public_view(deck, state)
    if not 1 <= seat <= len(state["seats"]):
        view["you"] = None
        return view
    known = state["identity"][seat - 1]
    you = {"seat": seat, "name": state["seats"][seat - 1]["name"],
           "identity": TEAM_CARD[known["team"]] if known else None,
           "identity_card": known["card"] if known else None,
           "hand": state["hands"][seat - 1], "your_turn": state["turn"] == seat}
    # What the phone page shows: the identity big, the rest as a short list, its own seat's row.
    view.update(you=you, name=you["name"], seats=view["standings"],
                secret=you["identity"] or "Show your identity card to your reader",
                private={"identity": you["identity"] or "not shown yet", "cards in hand": you["hand"],
                         "your turn": "yes" if you["your_turn"] else "no"})
    return view


def _standings(deck: Deck, state: State, fight: dict | None) -> list[dict[str, Any]]:
    """One row per seat: points, hand size, and a team only once it is face up."""
    revealed = state["phase"] in ("round_over", "tiebreak", "over")
    rows = []
    for s, seat in enumerate(state["seats"], 1):
        known = state["identity"][s - 1]
        show = known is not None and (revealed or state["exposed"][s - 1])
        row = {"seat": s, "name": seat["name"], "points": state["points"][s - 1], "hand": state["hands"][s - 1],
               "identity": TEAM_CARD[known["team"]] if show else None, "shown_identity": known is not None,
               "eliminated": state["eliminated"][s - 1], "turn": state["turn"] == s, "play": []}
        if row["identity"]:
            row["say"] = row["identity"]
        _add_play(deck, row, s, fight)
        rows.append(row)
    return rows


def _add_play(deck: Deck, row: dict[str, Any], s: int, fight: dict | None) -> None:
    """The cards on the pile that are this seat's: the play to beat, or the play being put down."""
    for key in ("top", "pending"):
        shown = (fight or {}).get(key)
        if shown and shown["seat"] == s:
            row["play"] = [{"key": k, "name": deck.card(k).name, "kind": deck.card(k).kind} for k in shown["cards"]]
            if key == "pending" and shown["problem"]:
                row["problem"] = shown["problem"]


def _discard_top(deck: Deck, state: State) -> dict | None:
    if not state["pile"]:
        return None
    key = state["pile"][-1]
    return {"card": key, "name": deck.card(key).name}


def _fight(deck: Deck, state: State) -> dict | None:
    if state["phase"] != "battle":
        return None
    top, pending = state["top"], state["pending"]
    view: dict[str, Any] = {"top": None, "pending": None}
    if top:
        view["top"] = {**top, "says": describe(top["count"], top["rank"])}
    if pending:
        problem = play_problem(deck, state, pending)
        view["pending"] = {**pending, "names": [deck.card(k).name for k in pending["cards"]],
                           "problem": problem, "say": problem}
    return view


def _conflict(deck: Deck, conflict: dict) -> dict:
    secret = deck.is_identity(conflict["card"])
    label = "An identity card" if secret else conflict["card"]
    return {"card": None if secret else conflict["card"], "zones": conflict["zones"],
            "say": f"{label} is seen in {' and '.join(conflict['zones'])} at once: a duplicated tag."}


def _awaiting(state: State) -> dict | None:
    asked = state["awaiting"]
    if not asked:
        return None
    return {k: v for k, v in asked.items() if k != "then"} | {"say": awaiting(state, asked)}


def _count_check(state: State) -> dict | None:
    check = state["count_check"]
    if not check:
        return None
    return {"seat": check["seat"], "counted": check["counted"], "needs": check["needs"],
            "say": counts.question(state, check)}
