"""Combined sets, rule 6: "If an enemy is eliminated from a theatre and a battle comes up from that theatre, the
player remaining in that theatre may take the battle without a fight, or discard the battle, and perform a raid
against the enemy in the other theatre. He may make this attack as a Ground and Air attack or as an Air and Sea
attack. No victory points are awarded in such a raid.\""""
from __future__ import annotations

from ..base import Outcome
from ..contract import Refused
from . import battle as battles, ending
from .cards import Deck
from .state import Battle, PacificState, Stage

RULE = ("\"6) If an enemy is eliminated from a theatre and a battle comes up from that theatre, the player remaining "
        "in that theatre may take the battle without a fight, or discard the battle, and perform a raid against the "
        "enemy in the other theatre.\"")
FORCES = {"ground_air": ["ground", "air"], "air_sea": ["air", "sea"]}   # "as a Ground and Air attack or as an Air and Sea attack"


def raider(deck: Deck, state: PacificState, card: str) -> int | None:
    """The player remaining in the card's theatre, when his enemy there is eliminated (else None)."""
    theatre = deck.theatre(card)
    here = [s for s, a in state.armies.items() if a.theatre == theatre]
    if len(here) != 2 or len(state.armies) != 4:
        return None
    fallen = [s for s in here if state.armies[s].eliminated]
    return next((s for s in here if s not in fallen), None) if len(fallen) == 1 else None


def offered(deck: Deck, state: PacificState, card: str, seat: int) -> list[Outcome]:
    """The BATTLECARD waits for the remaining player's choice (its prerequisites and aggressor no longer apply:
    he takes it or raids)."""
    state.pending, state.stage = card, Stage.DECISION
    return [Outcome("raid_offered", data={"card": card, "seat": seat})]


def _chooser(deck: Deck, state: PacificState, seat: int) -> None:
    remaining = raider(deck, state, state.pending) if state.pending else None
    if remaining is None:
        raise Refused(f"{RULE} No enemy is eliminated from this battle's theatre.")
    if seat != remaining:
        raise Refused(f"{RULE} {state.name(remaining)} is the player remaining in that theatre.")


def on_take(deck: Deck, state: PacificState, seat: int) -> tuple[Outcome, ...]:
    """"take the battle without a fight": the BATTLECARD and its VP."""
    _chooser(deck, state, seat)
    card = state.pending
    state.pending = None
    army = state.armies[seat]
    army.won.append(card)
    army.vp += deck.card(card)["vp"]
    out = [Outcome("battle_won", data={"card": card, "seat": seat, "side": "aggressor", "vp": deck.card(card)["vp"],
                                       "how": "taken", "losers": []})]
    ending.check_victory(deck, state, out)
    if not state.over:
        ending.end_turn(state, out)
    return tuple(out)


def on_raid(deck: Deck, state: PacificState, seat: int, forces: str) -> tuple[Outcome, ...]:
    """"discard the battle, and perform a raid against the enemy in the other theatre": the raider's side
    against the other theatre's enemy (allies called in together, as in any battle), fought there."""
    _chooser(deck, state, seat)
    if forces not in FORCES:
        raise Refused("\"He may make this attack as a Ground and Air attack or as an Air and Sea attack.\"")
    card, theatre = state.pending, _other_theatre(state, seat)
    mine = battles.allies(state, seat)
    attackers = [s for s in mine if battles.eligible(deck, state, s, theatre)]
    defenders = [s for s in state.armies if s not in mine and battles.eligible(deck, state, s, theatre)]
    state.pending = None
    battle = Battle(card=card, aggressors=attackers, defenders=defenders, raid=FORCES[forces], theatre=theatre)
    out = [Outcome("raid", data={"card": card, "seat": seat, "types": FORCES[forces], "defenders": defenders})]
    return tuple(out + battles.call_in(deck, state, battle))


def _other_theatre(state: PacificState, seat: int) -> str:
    return next(a.theatre for a in state.armies.values() if a.theatre != state.armies[seat].theatre)


def choices(deck: Deck, state: PacificState) -> list[dict]:
    seat = raider(deck, state, state.pending) if state.pending else None
    return [] if seat is None else [{"seat": seat, "forces": f} for f in FORCES]
