"""One sentence for the table: what happens next (the views' ``prompt``), the question a choice
waits on, and the refusal of an input that comes at the wrong moment (which ends with the prompt,
so the players read what to do instead).
"""
from __future__ import annotations

from ..base import State
from . import counts, seats
from .cards import Deck
from .plays import describe, play_problem


def prompt(deck: Deck, state: State) -> str:
    """One sentence: what the table does next."""
    phase = state["phase"]
    if phase == "over":
        return f"{seats.name(state, state['winner'])} wins the game!"
    if phase == "tiebreak":
        tie = state["tiebreak"]
        waiting = [s for s in tie["players"] if all(d["seat"] != s for d in tie["drawn"])]
        return f"Tie-break: SAVE and ELIMINATE face down; still to draw: {seats.names(state, waiting)}."
    if phase == "round_over":
        return "Round over: shuffle, deal new identity cards and tap New round."
    if state["count_check"]:
        return counts.question(state, state["count_check"])
    if state["awaiting"]:
        return awaiting(state, state["awaiting"])
    if phase == "deal":
        return _deal(state)
    if phase == "building":
        return _building(state)
    return _battle(deck, state)


def _deal(state: State) -> str:
    missing = seats.identities_missing(state)
    parts = []
    if missing:
        parts.append(f"still to show their identity card privately: {seats.names(state, missing)}")
    if not state["flipped"]:
        parts.append("flip the first discard")
    return f"Deal {state['deal']['per_player']} cards each; " + "; ".join(parts) + "."


def _building(state: State) -> str:
    who = seats.name(state, state["turn"])
    if state["step"]["drew"] is None:
        return f"{who}: draw from the deck or take the top discard."
    return f"{who}: discard one card, or pass."


def _battle(deck: Deck, state: State) -> str:
    who = seats.name(state, state["turn"])
    pending, top = state["pending"], state["top"]
    if pending:
        problem = play_problem(deck, state, pending)
        return problem or f"{who} is playing {', '.join(deck.card(k).name for k in pending['cards'])}."
    if top:
        return f"{who}: beat {describe(top['count'], top['rank'])}, play an action card, or pass."
    return f"{who}: start a battle with any fight card(s)."


def awaiting(state: State, asked: dict) -> str:
    """The question ``state["awaiting"]`` asks: a target for EXPOSE or ELIMINATE, or a SAVE."""
    by = seats.name(state, asked["by"])
    if asked["what"] == "expose":
        return f"{by} chooses a player to expose (expose {{\"target\": N}})."
    if asked["what"] == "eliminate":
        return f"{by} chooses a player to eliminate (eliminate {{\"target\": N}})."
    if asked["what"] == "save":
        return (f"{seats.name(state, asked['target'])} is chosen for elimination: anyone may play SAVE now, or "
                f"tap No save.")
    return "Who played the SAVE card? (save {\"by\": N})"


def not_now(deck: Deck, state: State, what: str) -> str:
    """A refusal for an input this phase does not take: what it is for, the phase, what to do now."""
    phase = {"deal": "the deal is not finished", "building": "this is the building phase",
             "battle": "this is the battle phase", "round_over": "the round is over",
             "tiebreak": "a tie-break is under way"}.get(state["phase"], state["phase"])
    return f"{what}; {phase}. {prompt(deck, state)}"
