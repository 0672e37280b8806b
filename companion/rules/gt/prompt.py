"""One sentence for the table: what happens next and where the cards go (the view's ``prompt``),
the question a choice waits on, and where a player shows their identity card.

Identity cards are shown privately on the seat's own reader or in the covered scan tray. The
prompt names the way this table has used (``state.shown_via``), both until it has used one.
"""
from __future__ import annotations

from . import refusals, seats
from .cards import Deck
from .plays import describe, play_problem
from .state import Awaiting, BattleState, Phase
from .turns import only_the_deck
from .words import count_question


def prompt(deck: Deck, state: BattleState) -> str:
    """One sentence: what the table does next."""
    phase = state.phase
    if phase == Phase.OVER:
        return f"{seats.name(state, state.winner)} wins the game!"
    if phase == Phase.TIEBREAK:
        tie = state.tie_break()
        waiting = [s for s in tie.players if all(d.seat != s for d in tie.drawn)]
        return (f"Tie-break: one SAVE and one ELIMINATE card face down; still to draw one and tap it on the "
                f"tablet: {seats.names(state, waiting)}.")
    if phase == Phase.ROUND_OVER:
        return "Round over: gather and shuffle the cards, deal new identity cards and tap New round."
    if state.count_check:
        return count_question(state, state.count_check.seat)
    if state.awaiting:
        return awaiting(state, state.awaiting)
    if phase == Phase.DEAL:
        return _deal(state)
    if phase == Phase.BUILDING:
        return _building(deck, state)
    return _battle(deck, state)


def where_identities_go(state: BattleState) -> str:
    """Where a player shows their identity card, as this table does it."""
    if state.shown_via == ["reader"]:
        return "tap it on your own reader"
    if state.shown_via == ["tray"]:
        return "lay it face up in the covered scan tray (under the cover, where only the camera sees it)"
    return "tap it on your own reader, or lay it face up in the covered scan tray"


def _deal(state: BattleState) -> str:
    missing = seats.identities_missing(state)
    parts = []
    if missing:
        parts.append(f"still to show their identity card privately ({where_identities_go(state)}): "
                     f"{seats.names(state, missing)}")
        if "tray" in state.shown_via or not state.shown_via:
            parts.append(f"the scan tray takes {seats.name(state, missing[0])}'s card next")
    if not state.flipped:
        parts.append("flip the first discard onto the centre pile")
    return f"Deal {state.deal.per_player} cards each; " + "; ".join(parts) + "."


def _building(deck: Deck, state: BattleState) -> str:
    who = seats.name(state, state.turn)
    if state.building_step().drew is None and only_the_deck(deck, state):
        return f"{who}: draw from the deck, then discard one card onto the centre pile (or tap Pass to keep them all)."
    if state.building_step().drew is None:
        return f"{who}: draw from the deck or take the top discard, and tap which on the tablet."
    return f"{who}: discard one card onto the centre pile, or pass."


def _battle(deck: Deck, state: BattleState) -> str:
    who = seats.name(state, state.turn)
    pending, top = state.pending, state.top
    if pending:
        problem = play_problem(deck, state, pending)
        return refusals.word(*problem, state, deck) if problem else f"{who} is playing {', '.join(deck.name(k) for k in pending.cards)}."
    if top:
        return (f"{who}: beat {describe(top.count, top.rank)} on the centre pile, play an action card, or pass; "
                f"with no fight cards left, play your identity card.")
    return f"{who}: start a battle with any fight card(s) on the centre pile."


def awaiting(state: BattleState, asked: Awaiting) -> str:
    """The question ``state.awaiting`` asks: a target for EXPOSE or ELIMINATE, or a SAVE."""
    by = seats.name(state, asked.by)
    if asked.what == "expose":
        return f"{by} chooses a player to expose: pick them on the tablet."
    if asked.what == "eliminate":
        return f"{by} chooses a player to eliminate: pick them on the tablet."
    if asked.what == "save":
        return (f"{seats.name(state, asked.target)} is chosen for elimination: anyone may play SAVE onto the "
                f"centre pile now, or tap No save.")
    return "Who played the SAVE card? Pick them on the tablet."
